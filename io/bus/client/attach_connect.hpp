#pragma once
// A client's first step of the attach protocol (docs/bus.md "C API and Python"): the
// connection to a rig's bus socket, and the WELCOME's status as the client's.
// Thread-safety: pure functions.

#include <cstdint>
#include <filesystem>
#include <string>

#include "io/bus/client/attach_protocol.hpp"
#include "io/bus/client/bus_status.hpp"

namespace hil::io::bus {

/// Connects `fd` (SOCK_SEQPACKET) to `endpoint` within `timeout_ms` (AF_UNIX connect blocks
/// only on a full backlog; SO_SNDTIMEO bounds that). Not ok: `fd` is -1 and `why` says what
/// happened (no rig running there, not permitted, timeout, …).
BusStatus connect_to(const std::filesystem::path& endpoint, std::uint32_t timeout_ms, int& fd,
                     std::string& why);

/// The client's status for the WELCOME's.
[[nodiscard]] BusStatus status_of(AttachStatus s) noexcept;

}  // namespace hil::io::bus
