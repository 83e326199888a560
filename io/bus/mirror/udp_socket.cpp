#include "io/bus/mirror/udp_socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace hil::io::bus::mirror {

namespace {

[[noreturn]] void fail(std::string_view what, std::string_view text, const std::string& why) {
  throw std::runtime_error("mirror " + std::string(what) + " \"" + std::string(text) +
                           "\": " + why);
}

}  // namespace

SocketAddress SocketAddress::resolve(std::string_view text, std::string_view what, int family) {
  std::string host;
  std::string_view port;
  if (!text.empty() && text.front() == '[') {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      fail(what, text, "expected [IPv6]:PORT");
    }
    host = std::string(text.substr(1, close - 1));
    port = text.substr(close + 2);
  } else {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos || text.find(':') != colon) {
      fail(what, text, "expected HOST:PORT (IPv6 literals in brackets: [::1]:PORT)");
    }
    host = std::string(text.substr(0, colon));
    port = text.substr(colon + 1);
  }
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (host.empty() || port.empty() || ec != std::errc() || end != port.data() + port.size() ||
      value > 65535) {
    fail(what, text, "expected HOST:PORT with a port 0..65535");
  }
  addrinfo hints{};
  hints.ai_family = family;
  hints.ai_socktype = SOCK_DGRAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port_text(port);
  const int rc = ::getaddrinfo(host.c_str(), port_text.c_str(), &hints, &found);
  if (rc != 0 || found == nullptr) {
    fail(what, text, std::string("cannot resolve the host: ") + ::gai_strerror(rc));
  }
  const addrinfo* pick = found;
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    if (a->ai_family == AF_INET) {
      pick = a;
      break;
    }
  }
  SocketAddress out;
  std::memcpy(&out.storage, pick->ai_addr, pick->ai_addrlen);
  out.size = pick->ai_addrlen;
  ::freeaddrinfo(found);
  return out;
}

bool SocketAddress::same(const sockaddr_storage& other, socklen_t len) const noexcept {
  if (other.ss_family != storage.ss_family) return false;
  if (storage.ss_family == AF_INET) {
    if (len < static_cast<socklen_t>(sizeof(sockaddr_in))) return false;
    const auto& a = reinterpret_cast<const sockaddr_in&>(storage);
    const auto& b = reinterpret_cast<const sockaddr_in&>(other);
    return a.sin_port == b.sin_port && a.sin_addr.s_addr == b.sin_addr.s_addr;
  }
  if (storage.ss_family == AF_INET6) {
    if (len < static_cast<socklen_t>(sizeof(sockaddr_in6))) return false;
    const auto& a = reinterpret_cast<const sockaddr_in6&>(storage);
    const auto& b = reinterpret_cast<const sockaddr_in6&>(other);
    return a.sin6_port == b.sin6_port &&
           std::memcmp(&a.sin6_addr, &b.sin6_addr, sizeof a.sin6_addr) == 0;
  }
  return false;
}

std::string SocketAddress::to_string() const {
  char host[INET6_ADDRSTRLEN] = {};
  if (family() == AF_INET) {
    const auto& a = reinterpret_cast<const sockaddr_in&>(storage);
    ::inet_ntop(AF_INET, &a.sin_addr, host, sizeof host);
    return std::string(host) + ":" + std::to_string(ntohs(a.sin_port));
  }
  if (family() == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(storage);
    ::inet_ntop(AF_INET6, &a.sin6_addr, host, sizeof host);
    return "[" + std::string(host) + "]:" + std::to_string(ntohs(a.sin6_port));
  }
  return "?";
}

UdpSocket::UdpSocket(const SocketAddress& local) {
  const std::string text = local.to_string();
  fd_ = ::socket(local.family(), SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) fail("bind", text, std::string("cannot open a UDP socket: ") + std::strerror(errno));
  // Don't fragment: a region over the path MTU fails with EMSGSIZE (counted), visibly
  const int pmtu = IP_PMTUDISC_DO;
  if (local.family() == AF_INET) {
    ::setsockopt(fd_, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof pmtu);
  } else {
    ::setsockopt(fd_, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &pmtu, sizeof pmtu);
  }
  // Best effort (the kernel caps it at net.core.rmem_max): room for bursts of snapshots
  const int rcvbuf = 1 << 20;
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  if (::bind(fd_, local.get(), local.size) != 0) {
    const int e = errno;
    ::close(fd_);
    fd_ = -1;
    fail("bind", text,
         std::string("cannot bind: ") + std::strerror(e) +
             (e == EADDRINUSE ? " (is another hilsim mirror using it?)" : ""));
  }
  local_.size = sizeof local_.storage;
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&local_.storage), &local_.size);
}

UdpSocket::~UdpSocket() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace hil::io::bus::mirror
