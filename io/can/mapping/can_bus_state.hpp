#pragma once
// The per-message state of a CanBus (io/can/mapping/can_bus.hpp), shared by its setup
// (can_bus.cpp), read phase (can_bus_rx.cpp) and write phase (can_bus_tx.cpp). Internal.

#include <cstdint>
#include <optional>
#include <vector>

#include "io/can/e2e/check.hpp"
#include "io/can/e2e/profile.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/mapping/can_bus_build.hpp"
#include "io/can/mapping/send_schedule.hpp"

namespace hil::io::can {

struct CanBus::Rx {
  std::string name;  // the DBC message's
  bool dut = false;
  const dbc::CompiledMessage* message = nullptr;
  std::vector<detail::Binding> bindings;
  std::vector<dbc::SignalValue> values;  // one per signal of the message
  detail::E2e e2e;                       // plain alive counter and J1850 CRC
  std::optional<e2e::ProfileSpec> profile;
  e2e::CheckState check;
  std::int64_t cycle_ticks = 0;    // 0: the DBC gives none
  std::int64_t no_data_at = 0;     // E2E: NODATA when nothing came by then
  std::int64_t timeout_ticks = 0;  // < 0: never missing
  std::int64_t hold_ticks = 0;
  std::int64_t last_tick = 0;  // last valid frame; the start counts as one
  std::optional<std::uint32_t> last_counter;
  bool missing = false;
  std::vector<std::pair<rt::ChannelId, double>> safe;
  rt::ChannelId status{};
  std::optional<rt::ChannelId> e2e_status;
  MessageCounters counters;
  MessageFaultHook* fault = nullptr;
};

struct CanBus::Tx {
  const dbc::CompiledMessage* message = nullptr;
  std::vector<detail::Binding> bindings;
  std::vector<double> values;    // one per signal: start values, then the bound channels'
  std::vector<double> physical;  // what is encoded: values, then faults
  std::vector<double> inactive;  // if-active: each signal's inactive value (NaN: ignored)
  detail::E2e e2e;               // plain alive counter and J1850 CRC
  std::optional<e2e::ProfileSpec> profile;
  SendSchedule schedule;
  std::uint64_t sent = 0;  // alive counter source
  std::int32_t node = -1;  // the simulated node (Database::nodes), −1: none
  const bool* node_silent = nullptr;
  MessageCounters counters;
  MessageFaultHook* fault = nullptr;
};

}  // namespace hil::io::can
