#pragma once
// Where a rig's attach socket lives (docs/bus.md "Attach"): <runtime directory>/<rig>.bus.
// The runtime directory is, in this order: $HILSIM_RUNTIME_DIR; systemd's $RUNTIME_DIRECTORY
// (RuntimeDirectory=hilsim; its first entry when colon-separated); $XDG_RUNTIME_DIR/hilsim;
// /run/hilsim for root; /tmp/hilsim-<uid> otherwise. Created mode 0750 when missing.
//
// Thread-safety: every function may be called from any non-RT thread (they read the
// environment and make system calls); none is for the RT thread.

#include <filesystem>
#include <string_view>
#include <vector>

namespace hil::io::bus {

/// The runtime directory (see above), created 0750 when missing. Throws
/// std::filesystem::filesystem_error when it cannot be created, and std::runtime_error when
/// the /tmp fallback exists but is not a directory owned by this user.
[[nodiscard]] std::filesystem::path runtime_directory();

/// runtime_directory() / "<rig>.bus". Throws std::invalid_argument for a rig name that is
/// empty or holds a '/'.
[[nodiscard]] std::filesystem::path endpoint_for(std::string_view rig);

/// The *.bus sockets of the runtime directory that accept a connection, sorted; stale sockets
/// (left by a rig that died) are skipped. Empty when the directory is missing.
[[nodiscard]] std::vector<std::filesystem::path> running_endpoints();

/// True when a SOCK_SEQPACKET connection to `socket` succeeds (it is closed at once).
[[nodiscard]] bool endpoint_accepts(const std::filesystem::path& socket) noexcept;

}  // namespace hil::io::bus
