#pragma once
// `hilsim ecu`: the built-in ECU on its own, over a CAN transport, against a rig that runs
// elsewhere (recipe.hpp Peer::ecu_alone): the rig's files give it its bus (mirrored) and the
// scenario its drive; without one it drives straight ahead. Its own loop, in real time.

#include <optional>
#include <string>

#include "rt_core/time.hpp"
#include "tools/session/ecu/ecu_report.hpp"

namespace hil::session {

struct EcuSpec {
  std::string rig;       ///< a name or a rig file
  std::string can;       ///< the transport URI
  std::string scenario;  ///< a name or a file; "" a straight drive at `speed`
  double speed = 1.0;    ///< without a scenario [m/s]
  /// Stop after this much of the ECU's own running time (since the rig was first heard).
  std::optional<rt::Nanoseconds> duration;
  rt::Nanoseconds period = rt::kMillisecond;  ///< the ECU loop's
  int priority = 0;                           ///< SCHED_FIFO, 0 a normal thread
  bool quiet = false;
};

/// Runs the ECU until the scenario's end, --duration or a signal, printing progress; the
/// report, or nullopt after printing why the rig or scenario does not load.
[[nodiscard]] std::optional<EcuReport> run_ecu(const EcuSpec& options);

}  // namespace hil::session
