#include "io/bus/client/bus_socket.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "io/bus/errno_error.hpp"

namespace hil::io::bus {

namespace {

sockaddr_un address_of(const std::filesystem::path& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string p = path.string();
  if (p.empty() || p.size() >= sizeof addr.sun_path) {
    throw std::runtime_error("bus socket path \"" + p + "\" is empty or longer than " +
                             std::to_string(sizeof addr.sun_path - 1) + " bytes");
  }
  std::memcpy(addr.sun_path, p.c_str(), p.size() + 1);
  return addr;
}

/// Closes the socket unless released (the error paths).
struct FdOwner {
  int fd = -1;
  ~FdOwner() {
    if (fd >= 0) close(fd);
  }
};

}  // namespace

BusSocket listen_on_bus_socket(const std::filesystem::path& path, mode_t mode,
                               std::optional<gid_t> group, const std::string& rig) {
  const sockaddr_un addr = address_of(path);
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      throw std::runtime_error(path.string() + " exists and is not a socket; not replacing it");
    }
    const int probe = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (probe < 0) throw_errno("socket");
    const int rc = connect(probe, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
    const int err = errno;
    close(probe);
    if (rc == 0 || err == EAGAIN) {
      throw std::runtime_error("a rig named " + rig + " is already running: " + path.string());
    }
    if (err != ECONNREFUSED) {
      errno = err;
      throw_errno("probing the existing bus socket " + path.string());
    }
    // Stale: its server died without unlinking it
    if (unlink(path.c_str()) != 0 && errno != ENOENT)
      throw_errno("removing stale " + path.string());
  }
  FdOwner s{socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)};
  if (s.fd < 0) throw_errno("socket");
  if (bind(s.fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    if (errno == EADDRINUSE) {
      throw std::runtime_error("a rig named " + rig + " is already running: " + path.string());
    }
    throw_errno("bind " + path.string());
  }
  if (chmod(path.c_str(), mode) != 0) throw_errno("chmod " + path.string());
  if (group && chown(path.c_str(), static_cast<uid_t>(-1), *group) != 0) {
    throw_errno("chown " + path.string() + " to gid " + std::to_string(*group));
  }
  if (lstat(path.c_str(), &st) != 0) throw_errno("stat " + path.string());
  if (listen(s.fd, 64) != 0) throw_errno("listen " + path.string());
  return {.fd = std::exchange(s.fd, -1), .inode = st.st_ino};
}

void remove_bus_socket(const std::filesystem::path& path, ino_t inode) noexcept {
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode) && st.st_ino == inode) {
    unlink(path.c_str());
  }
}

}  // namespace hil::io::bus
