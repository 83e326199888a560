#pragma once
// The test behind one DTC of the built-in ECU (config/diagnostics.proto `monitor`), run each
// monitor period on what the ECU sees: its bus's receive counters and its channels. A message
// timeout fails while the message is missing; message errors fail when frames of it were
// refused since the last test (passed when good ones came, not tested when none did); a limit
// or a plausibility check on the ECU's channels. docs/diagnostics.md "Monitors".
//
// Thread-safety: build in the setup phase; test() on the ECU's executive thread (RT: noexcept,
// no allocation).

#include <cstdint>
#include <optional>
#include <vector>

#include "config/diagnostics_spec.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::ecu::diag {

enum class TestResult : std::uint8_t { passed, failed, not_tested };

class DtcMonitor {
 public:
  /// Resolves the spec's message (among what `bus` receives) and channels (in `table`).
  /// Throws std::invalid_argument naming what it cannot find.
  DtcMonitor(const config::MonitorSpec& spec, const io::can::CanBus& bus,
             const rt::ChannelTable& table);

  /// RT: this period's result.
  [[nodiscard]] TestResult test() noexcept;

 private:
  config::MonitorSpec::Kind kind_;
  const io::can::CanBus& bus_;
  const rt::ChannelTable& table_;
  std::size_t rx_ = 0;                     ///< message kinds: index among the bus's received
  std::optional<rt::ChannelId> missing_;   ///< message_timeout: its .timeout channel
  std::uint64_t frames_ = 0, errors_ = 0;  ///< message_errors: counts at the last test
  std::vector<rt::ChannelId> channels_;
  double value_ = 0.0, min_value_ = 0.0;
};

}  // namespace hil::ecu::diag
