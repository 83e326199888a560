#pragma once
// The rig's bus socket on the file system (docs/bus.md "Concepts"): one rig per name. A live
// socket at the path means that rig already runs (refused); a stale one, whose server died
// without removing it, is replaced; anything else at the path is left alone (refused). The
// socket is removed only while it is still the one this process bound.
// Thread-safety: pure functions on the file system.

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>

namespace hil::io::bus {

struct BusSocket {
  int fd = -1;    ///< listening, SOCK_SEQPACKET, non-blocking, close-on-exec
  ino_t inode{};  ///< of the socket bound: what remove_bus_socket() checks
};

/// Binds and listens at `path` with `mode` (chowned to `group` if given). Throws
/// std::runtime_error (std::system_error for a failed call) naming the path, and `rig` when
/// one already runs there.
[[nodiscard]] BusSocket listen_on_bus_socket(const std::filesystem::path& path, mode_t mode,
                                             std::optional<gid_t> group, const std::string& rig);

/// Removes `path` if it is still the socket `inode` (a successor may have replaced it).
void remove_bus_socket(const std::filesystem::path& path, ino_t inode) noexcept;

}  // namespace hil::io::bus
