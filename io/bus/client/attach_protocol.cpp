#include "io/bus/client/attach_protocol.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace hil::io::bus {

namespace {

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

/// Appends every fd the SCM_RIGHTS control messages of `msg` brought in.
void collect_fds(msghdr& msg, std::vector<int>& fds) {
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      const std::size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (std::size_t i = 0; i < n; ++i) {
        int fd = -1;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        fds.push_back(fd);
      }
    }
  }
}

void close_all(std::vector<int>& fds) {
  for (const int fd : fds) close(fd);
  fds.clear();
}

}  // namespace

const char* to_string(AttachStatus s) noexcept {
  switch (s) {
    case AttachStatus::ok:
      return "OK";
    case AttachStatus::role_taken:
      return "ROLE_TAKEN";
    case AttachStatus::role_unknown:
      return "ROLE_UNKNOWN";
    case AttachStatus::not_permitted:
      return "NOT_PERMITTED";
    case AttachStatus::schema_mismatch:
      return "SCHEMA_MISMATCH";
    case AttachStatus::bad_hello:
      return "BAD_HELLO";
    case AttachStatus::too_many_clients:
      return "TOO_MANY_CLIENTS";
  }
  return "UNKNOWN";
}

void set_field(char* field, std::size_t size, std::string_view text) noexcept {
  const std::size_t n = std::min(text.size(), size - 1);
  std::memcpy(field, text.data(), n);
  std::memset(field + n, 0, size - n);
}

bool send_hello(int socket, const Hello& hello, std::string& why) {
  const ssize_t sent = send(socket, &hello, sizeof hello, MSG_NOSIGNAL);
  if (sent != static_cast<ssize_t>(sizeof hello)) {
    why = errno_text("sending HELLO");
    return false;
  }
  return true;
}

bool receive_hello(int socket, Hello& hello, std::string& why) {
  Hello buffer[2];  // room for one byte more than a HELLO, to see an oversize message
  const ssize_t got = recv(socket, buffer, sizeof buffer, MSG_DONTWAIT);
  if (got < 0) {
    why = errno_text("receiving HELLO");
    return false;
  }
  if (got == 0) {
    errno = ECONNRESET;
    why = "connection closed before HELLO";
    return false;
  }
  if (static_cast<std::size_t>(got) != sizeof(Hello)) {
    errno = EPROTO;
    why = "bad HELLO: " + std::to_string(got) + " bytes, expected " + std::to_string(sizeof(Hello));
    return false;
  }
  hello = buffer[0];
  if (hello.magic != kHelloMagic || hello.proto != kAttachProto) {
    errno = EPROTO;
    why = "bad HELLO: magic or protocol version " + std::to_string(hello.proto) +
          " (this server speaks " + std::to_string(kAttachProto) + ")";
    return false;
  }
  // Fields are NUL-terminated; a client that filled them completely is refused
  if (std::memchr(hello.role, 0, sizeof hello.role) == nullptr ||
      std::memchr(hello.client_name, 0, sizeof hello.client_name) == nullptr ||
      hello.want_write > 1) {
    errno = EPROTO;
    why = "bad HELLO: unterminated role or client name";
    return false;
  }
  return true;
}

bool send_welcome(int socket, const Welcome& welcome, const std::vector<int>& fds,
                  std::string& why) {
  if (fds.size() != welcome.segment_count || fds.size() > kMaxWelcomeSegments) {
    why = "WELCOME with " + std::to_string(fds.size()) + " fds for " +
          std::to_string(welcome.segment_count) + " segments";
    return false;
  }
  iovec iov{const_cast<Welcome*>(&welcome), sizeof welcome};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxWelcomeSegments)];
  if (!fds.empty()) {
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  const ssize_t sent = sendmsg(socket, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
  if (sent != static_cast<ssize_t>(sizeof welcome)) {
    why = errno_text("sending WELCOME");
    return false;
  }
  return true;
}

bool receive_welcome(int socket, std::uint32_t timeout_ms, Welcome& welcome, std::vector<int>& fds,
                     std::string& why) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{socket, POLLIN, 0};
    const int rc = poll(&p, 1, static_cast<int>(std::max<long long>(left, 0)));
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) {
      why = errno_text("waiting for WELCOME");
      return false;
    }
    if (rc == 0) {
      errno = ETIMEDOUT;
      why = "no WELCOME within " + std::to_string(timeout_ms) + " ms";
      return false;
    }
    break;
  }
  iovec iov{&welcome, sizeof welcome};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * (kMaxWelcomeSegments + 1))];
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  const ssize_t got = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
  if (got < 0) {
    why = errno_text("receiving WELCOME");
    return false;
  }
  collect_fds(msg, fds);
  if (got == 0) {
    close_all(fds);
    errno = ECONNRESET;
    why = "the rig closed the connection before WELCOME";
    return false;
  }
  if (static_cast<std::size_t>(got) != sizeof welcome || (msg.msg_flags & MSG_TRUNC) != 0 ||
      (msg.msg_flags & MSG_CTRUNC) != 0 || welcome.magic != kWelcomeMagic ||
      welcome.proto != kAttachProto) {
    close_all(fds);
    errno = EPROTO;
    why = "malformed WELCOME (" + std::to_string(got) + " bytes; attach protocol " +
          std::to_string(kAttachProto) + " expected)";
    return false;
  }
  if (welcome.segment_count > kMaxWelcomeSegments || fds.size() != welcome.segment_count) {
    close_all(fds);
    errno = EPROTO;
    why = "WELCOME announced " + std::to_string(welcome.segment_count) + " segments but passed " +
          std::to_string(fds.size()) + " fds";
    return false;
  }
  welcome.message[kAttachMessageBytes - 1] = '\0';
  return true;
}

}  // namespace hil::io::bus
