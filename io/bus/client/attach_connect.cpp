#include "io/bus/client/attach_connect.hpp"

#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace hil::io::bus {

BusStatus status_of(AttachStatus s) noexcept {
  switch (s) {
    case AttachStatus::ok:
      return BusStatus::ok;
    case AttachStatus::role_taken:
      return BusStatus::role_taken;
    case AttachStatus::role_unknown:
      return BusStatus::role_unknown;
    case AttachStatus::not_permitted:
      return BusStatus::not_permitted;
    case AttachStatus::schema_mismatch:
      return BusStatus::schema;
    case AttachStatus::bad_hello:
      return BusStatus::bad_argument;
    case AttachStatus::too_many_clients:
      return BusStatus::io_error;
  }
  return BusStatus::io_error;
}

BusStatus connect_to(const std::filesystem::path& endpoint, std::uint32_t timeout_ms, int& fd,
                     std::string& why) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string p = endpoint.string();
  if (p.empty() || p.size() >= sizeof addr.sun_path) {
    why = "bus endpoint \"" + p + "\" is empty or too long for a socket path";
    return BusStatus::bad_argument;
  }
  std::memcpy(addr.sun_path, p.c_str(), p.size() + 1);
  fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    why = "socket: " + std::generic_category().message(errno);
    return BusStatus::io_error;
  }
  timeval tv{static_cast<time_t>(timeout_ms / 1000),
             static_cast<suseconds_t>(timeout_ms % 1000 * 1000)};
  if (timeout_ms == 0) tv.tv_usec = 1;  // 0 would mean "block forever"
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0) return BusStatus::ok;
  const int err = errno;
  close(fd);
  fd = -1;
  why = "cannot attach to " + p + ": " + std::generic_category().message(err);
  switch (err) {
    case ENOENT:
    case ECONNREFUSED:
    case ENOTDIR:
      why = "no rig is running at " + p + " (" + std::generic_category().message(err) + ")";
      return BusStatus::no_endpoint;
    case EACCES:
    case EPERM:
      return BusStatus::not_permitted;
    case EAGAIN:
    case EINPROGRESS:
    case ETIMEDOUT:
      return BusStatus::timeout;
    default:
      return BusStatus::io_error;
  }
}

}  // namespace hil::io::bus
