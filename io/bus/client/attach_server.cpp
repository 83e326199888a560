#include "io/bus/client/attach_server.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "io/bus/client/bus_socket.hpp"
#include "io/bus/errno_error.hpp"

namespace hil::io::bus {

namespace {

std::uint64_t steady_ms() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

std::string hex(std::uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "%016" PRIx64, v);
  return text;
}

}  // namespace

struct AttachServer::Connection {
  int fd = -1;
  ucred peer{};
  std::vector<gid_t> groups;  ///< SO_PEERGROUPS: supplementary groups
  std::uint64_t accepted_ms = 0;
  bool welcomed = false;
  std::string name;
  std::string role;  ///< the leased role, "" for readers
};

AttachServer::AttachServer(BusImage& image, std::filesystem::path socket_path,
                           AttachServerSpec options)
    : image_(image), path_(std::move(socket_path)), options_(std::move(options)) {
  if (image_.segment_count() + 1 > kMaxWelcomeSegments) {
    throw std::invalid_argument(
        "bus \"" + image_.schema().name + "\" has " + std::to_string(image_.segment_count()) +
        " segments; the attach protocol passes at most " + std::to_string(kMaxWelcomeSegments - 1));
  }
  try {
    for (std::size_t i = 0; i < image_.segment_count(); ++i) {
      read_only_fds_.push_back(image_.segment(i).reopen_read_only());
    }
    wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake_fd_ < 0) throw_errno("eventfd");
    const BusSocket bound = listen_on_bus_socket(path_, options_.socket_mode, options_.socket_group,
                                                 image_.schema().name);
    listen_fd_ = bound.fd;
    socket_inode_ = bound.inode;
  } catch (...) {
    for (const int fd : read_only_fds_) close(fd);
    if (wake_fd_ >= 0) close(wake_fd_);
    if (listen_fd_ >= 0) close(listen_fd_);
    throw;
  }
  thread_ = std::thread([this] { run(); });
}

AttachServer::~AttachServer() {
  const std::uint64_t one = 1;
  if (write(wake_fd_, &one, sizeof one) < 0) {
    // eventfd cannot fail for a single increment; the join below would then hang, so say so
    std::perror("AttachServer: waking the attach thread");
  }
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard lock(mutex_);
    while (!connections_.empty()) drop(connections_.size() - 1);
  }
  close(listen_fd_);
  remove_bus_socket(path_, socket_inode_);  // only our own: a successor may have replaced it
  for (const int fd : read_only_fds_) close(fd);
  close(wake_fd_);
}

void AttachServer::run() noexcept {
  std::vector<pollfd> fds;
  for (;;) {
    fds.clear();
    fds.push_back({wake_fd_, POLLIN, 0});
    fds.push_back({listen_fd_, POLLIN, 0});
    int timeout = -1;
    const std::uint64_t now = steady_ms();
    for (const auto& c : connections_) {
      fds.push_back({c->fd, POLLIN, 0});
      if (!c->welcomed) {
        const std::uint64_t due = c->accepted_ms + options_.hello_timeout_ms;
        const int left = due > now ? static_cast<int>(due - now) : 0;
        timeout = timeout < 0 ? left : std::min(timeout, left);
      }
    }
    if (poll(fds.data(), fds.size(), timeout) < 0) {
      if (errno == EINTR) continue;
      std::perror("AttachServer: poll");  // cannot happen with valid fds; do not spin
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    if ((fds[0].revents & POLLIN) != 0) return;
    // Connections first, by index from the back so drop() does not shift what is left
    const std::uint64_t after = steady_ms();
    for (std::size_t i = connections_.size(); i-- > 0;) {
      Connection& c = *connections_[i];
      const short ev = fds[i + 2].revents;
      if (!c.welcomed) {
        if ((ev & POLLIN) != 0) {
          if (!serve_hello(c)) {
            std::lock_guard lock(mutex_);
            drop(i);
          }
        } else if ((ev & (POLLHUP | POLLERR)) != 0 ||
                   after >= c.accepted_ms + options_.hello_timeout_ms) {
          std::lock_guard lock(mutex_);
          drop(i);
        }
        continue;
      }
      if (ev == 0) continue;
      // A welcomed client says nothing more; anything readable is EOF, an error or noise
      char sink[256];
      bool gone = (ev & (POLLHUP | POLLERR)) != 0;
      for (;;) {
        const ssize_t got = recv(c.fd, sink, sizeof sink, MSG_DONTWAIT);
        if (got > 0) continue;
        if (got == 0 || (errno != EAGAIN && errno != EINTR)) gone = true;
        break;
      }
      if (gone) {
        std::lock_guard lock(mutex_);
        drop(i);
      }
    }
    if ((fds[1].revents & POLLIN) != 0) accept_clients();
  }
}

void AttachServer::accept_clients() {
  for (;;) {
    const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;  // EAGAIN: none left; anything else: the client went away already
    auto c = std::make_unique<Connection>();
    c->fd = fd;
    c->accepted_ms = steady_ms();
    socklen_t len = sizeof c->peer;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c->peer, &len) != 0) {
      close(fd);
      continue;
    }
    gid_t groups[64];
    len = sizeof groups;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == 0) {
      c->groups.assign(groups, groups + len / sizeof(gid_t));
    }
    if (connections_.size() >= options_.max_clients) {
      Welcome w{};
      w.magic = kWelcomeMagic;
      w.proto = kAttachProto;
      w.status = AttachStatus::too_many_clients;
      w.generation = image_.generation();
      w.bus_schema_hash = image_.schema().hash();
      set_field(w.message, sizeof w.message,
                "the bus has its maximum of " + std::to_string(options_.max_clients) +
                    " clients attached");
      std::string why;
      (void)send_welcome(fd, w, {}, why);
      refusals_.fetch_add(1, kRelaxed);
      close(fd);
      continue;
    }
    std::lock_guard lock(mutex_);
    connections_.push_back(std::move(c));
  }
}

bool AttachServer::serve_hello(Connection& c) {
  Hello hello{};
  std::string why;
  std::vector<int> fds;
  Welcome w{};
  if (receive_hello(c.fd, hello, why)) {
    w = answer(hello, c, fds);
  } else if (errno == EAGAIN || errno == EINTR) {
    return true;  // not yet
  } else if (why.rfind("bad HELLO", 0) == 0) {
    w.magic = kWelcomeMagic;
    w.proto = kAttachProto;
    w.status = AttachStatus::bad_hello;
    w.generation = image_.generation();
    w.bus_schema_hash = image_.schema().hash();
    set_field(w.message, sizeof w.message, why);
    refusals_.fetch_add(1, kRelaxed);
  } else {
    return false;  // EOF or a socket error
  }
  if (!send_welcome(c.fd, w, fds, why) || w.status != AttachStatus::ok) {
    return false;  // refused (the answer is queued before the close) or unreachable
  }
  std::lock_guard lock(mutex_);
  c.welcomed = true;
  attaches_.fetch_add(1, kRelaxed);
  return true;
}

Welcome AttachServer::answer(const Hello& hello, Connection& c, std::vector<int>& fds) {
  Welcome w{};
  w.magic = kWelcomeMagic;
  w.proto = kAttachProto;
  w.generation = image_.generation();
  w.bus_schema_hash = image_.schema().hash();
  const std::string role(field_text(hello.role, sizeof hello.role));
  const std::string name(field_text(hello.client_name, sizeof hello.client_name));
  const auto refuse = [&](AttachStatus status, const std::string& message) {
    w.status = status;
    set_field(w.message, sizeof w.message, message);
    refusals_.fetch_add(1, kRelaxed);
    return w;
  };
  int write_segment = -1;
  if (hello.schema_hash != 0 && hello.schema_hash != w.bus_schema_hash) {
    // Read-only fds still go out, so the client can name the first differing channel
    w.status = AttachStatus::schema_mismatch;
    set_field(w.message, sizeof w.message,
              "the client expects bus schema " + hex(hello.schema_hash) + ", rig " +
                  image_.schema().name + " has " + hex(w.bus_schema_hash));
    refusals_.fetch_add(1, kRelaxed);
  } else if (hello.want_write != 0) {
    if (role.empty()) return refuse(AttachStatus::bad_hello, "bad HELLO: write without a role");
    write_segment = image_.segment_of_role(role);
    if (write_segment < 0) {
      std::string roles;
      for (const std::string& r : image_.schema().input_roles()) {
        roles += (roles.empty() ? "" : ", ") + r;
      }
      return refuse(AttachStatus::role_unknown,
                    "role \"" + role + "\" writes no region of bus " + image_.schema().name +
                        " (writer roles: " + (roles.empty() ? "none" : roles) + ")");
    }
    if (const auto a = options_.allow.find(role);
        a != options_.allow.end() && !(a->second.uids.empty() && a->second.gids.empty())) {
      const auto& ok_uids = a->second.uids;
      const auto& ok_gids = a->second.gids;
      bool allowed = std::find(ok_uids.begin(), ok_uids.end(), c.peer.uid) != ok_uids.end() ||
                     std::find(ok_gids.begin(), ok_gids.end(), c.peer.gid) != ok_gids.end();
      for (const gid_t g : c.groups) {
        allowed = allowed || std::find(ok_gids.begin(), ok_gids.end(), g) != ok_gids.end();
      }
      if (!allowed) {
        return refuse(AttachStatus::not_permitted, "uid " + std::to_string(c.peer.uid) + " (gid " +
                                                       std::to_string(c.peer.gid) +
                                                       ") may not write role \"" + role + "\"");
      }
    }
    std::lock_guard lock(mutex_);
    if (const auto held = leases_.find(role); held != leases_.end()) {
      w.holder_pid = static_cast<std::uint64_t>(held->second.pid);
      return refuse(AttachStatus::role_taken, "role \"" + role + "\" is held by pid " +
                                                  std::to_string(held->second.pid) + " (" +
                                                  held->second.holder + ")");
    }
    leases_[role] = Lease{.pid = c.peer.pid, .holder = name.empty() ? "unnamed" : name};
    c.role = role;
    stamp_lease(role, c.peer.pid, true);
    granted_.fetch_add(1, kRelaxed);
  }
  {
    std::lock_guard lock(mutex_);
    c.name = name;
  }
  for (std::size_t i = 0; i < image_.segment_count(); ++i) {
    WelcomeSegment& s = w.segments[fds.size()];
    s.kind = image_.kind(i);
    s.index = static_cast<std::uint32_t>(i);
    set_field(s.role, sizeof s.role, image_.role(i));
    fds.push_back(read_only_fds_[i]);
  }
  if (write_segment >= 0) {
    WelcomeSegment& s = w.segments[fds.size()];
    s.kind = SegmentKind::in;
    s.writable = 1;
    s.index = static_cast<std::uint32_t>(write_segment);
    set_field(s.role, sizeof s.role, role);
    fds.push_back(image_.segment(static_cast<std::size_t>(write_segment)).fd());
  }
  w.segment_count = static_cast<std::uint32_t>(fds.size());
  return w;
}

void AttachServer::drop(std::size_t index) {
  Connection& c = *connections_[index];
  if (!c.role.empty()) {
    const auto held = leases_.find(c.role);
    if (held != leases_.end() && !held->second.reserved && held->second.pid == c.peer.pid) {
      leases_.erase(held);
      stamp_lease(c.role, 0, false);
      released_.fetch_add(1, kRelaxed);
    }
  }
  if (c.fd >= 0) close(c.fd);
  connections_.erase(connections_.begin() + static_cast<std::ptrdiff_t>(index));
}

void AttachServer::stamp_lease(std::string_view role, pid_t pid, bool granted) noexcept {
  const BusSchema& schema = image_.schema();
  for (std::size_t id = 0; id < schema.regions.size(); ++id) {
    const RegionSchema& r = schema.regions[id];
    if (r.direction != RegionDirection::input || r.writer != role) continue;
    RegionControl& control = image_.region(static_cast<std::uint32_t>(id)).control();
    if (granted) {
      std::atomic_ref<std::uint64_t>(control.lease_epoch).fetch_add(1, std::memory_order_relaxed);
    }
    std::atomic_ref<std::uint64_t>(control.writer_pid)
        .store(static_cast<std::uint64_t>(pid), std::memory_order_release);
  }
}

bool AttachServer::reserve(std::string_view role, std::string_view holder) {
  if (image_.segment_of_role(role) < 0) return false;
  std::lock_guard lock(mutex_);
  if (leases_.find(role) != leases_.end()) return false;
  leases_.emplace(std::string(role),
                  Lease{.pid = getpid(), .holder = std::string(holder), .reserved = true});
  stamp_lease(role, getpid(), true);
  return true;
}

void AttachServer::unreserve(std::string_view role) {
  std::lock_guard lock(mutex_);
  const auto held = leases_.find(role);
  if (held != leases_.end() && held->second.reserved) {
    leases_.erase(held);
    stamp_lease(role, 0, false);
  }
}

pid_t AttachServer::lease_holder(std::string_view role) const {
  std::lock_guard lock(mutex_);
  const auto held = leases_.find(role);
  return held != leases_.end() ? held->second.pid : 0;
}

std::vector<AttachedClient> AttachServer::clients() const {
  std::lock_guard lock(mutex_);
  std::vector<AttachedClient> out;
  for (const auto& c : connections_) {
    if (c->welcomed) out.push_back({c->peer.pid, c->peer.uid, c->name, c->role});
  }
  return out;
}

}  // namespace hil::io::bus
