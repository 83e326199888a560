#pragma once
// What `hilsim ecu` saw: per message the rig sends, frames, errors and timeouts and the
// periods between arrivals; per message the ECU sends, frames; the transport's counters; the
// cycles it held the vehicle; the scenario's verdict on its own observations. Collected after
// the ECU's loop has stopped (setup-phase code: allocates).

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "io/can/transport/transport_counters.hpp"
#include "rt_core/rt_setup.hpp"
#include "tools/ecu/virtual_ecu.hpp"

namespace hil::session {

struct ReceivedMessageReport {
  std::string name;
  double cycle_s = 0.0;
  std::uint64_t frames = 0, errors = 0, counter_jumps = 0, timeouts = 0;
  std::uint64_t crc_errors = 0, counter_errors = 0, length_errors = 0;  ///< parts of errors
  ecu::PeriodStats periods;
  double deviation_p99_us = 0.0, deviation_max_us = 0.0;  ///< |period − cycle|
};

struct SentMessageReport {
  std::string name;
  std::uint64_t frames = 0, errors = 0, drops = 0;
};

struct EcuReport {
  std::string rig, scenario, uri;
  double scenario_time_s = 0.0;
  std::uint64_t cycles = 0, holding_cycles = 0;
  std::vector<ReceivedMessageReport> received;
  std::vector<SentMessageReport> sent;
  io::can::TransportStats transport;
  rt::RtStatus status;
  std::optional<runtime::ScenarioVerdict> verdict;  ///< when the scenario ran to its end
  bool interrupted = false;                         ///< stopped by a signal
  bool rig_gone = false;  ///< stopped short of the scenario's end: the rig fell silent
};

/// Fills the ECU's part of a report. After its executive is done.
void collect(const ecu::VirtualEcu& ecu, EcuReport& report);

/// Human summary, several lines, ending in a newline.
[[nodiscard]] std::string format_summary(const EcuReport& report);

/// The same figures with stable keys (rx[], tx[], transport{}, verdict{}).
[[nodiscard]] nlohmann::json to_json(const EcuReport& report);

}  // namespace hil::session
