#pragma once
// The console's CAN view (docs/console.md `can`): per bus and message, the last data, the
// decoded signals and their channels, the measured against the DBC's cycle, the counters, the
// rest-bus role (simulated node, send plan, device under test) and the E2E profile and status.
//
// Thread-safety: the callable runs on the console's thread (it reads the rig's published
// snapshot and relaxed counters).

#include <functional>

#include <nlohmann/json.hpp>

namespace hil::runtime {
class Rig;
}  // namespace hil::runtime

namespace hil::session {

/// The CAN view of `rig` (which must outlive it): what does not change during the run is
/// resolved here, once; each call returns the buses' messages as they are now.
[[nodiscard]] std::function<nlohmann::json()> can_view(runtime::Rig& rig);

}  // namespace hil::session
