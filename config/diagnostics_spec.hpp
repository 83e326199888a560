#pragma once
// The rig's `diagnostics` block (config/diagnostics.proto) checked and converted: the built-in
// ECU's UDS addressing, data identifiers, DTCs with their monitors and debouncing, security
// access and routines (docs/diagnostics.md). Names are checked against the rig's CAN mapping:
// a monitored message is one the rig sends on the diagnostics bus (the ECU receives it), a
// channel one that bus maps (the ECU sees it). Errors are located in the rig file. Setup phase.
// Thread-safety: a function of its arguments.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "io/can/mapping/can_bus_spec.hpp"

namespace hil::config {

class Diagnostics;  // config/diagnostics.proto

/// What a DTC's monitor tests each monitor period.
struct MonitorSpec {
  enum class Kind : std::uint8_t { message_timeout, message_errors, above, below, plausibility };
  Kind kind = Kind::message_timeout;
  std::string message;                ///< message_timeout, message_errors
  std::vector<std::string> channels;  ///< above, below: one; plausibility: two or more
  double value = 0.0;                 ///< above/below: the limit; plausibility: the max spread
  double min_value = -std::numeric_limits<double>::infinity();  ///< plausibility: tested above
};

struct DidSpec {
  std::uint16_t id = 0;
  std::string text;     ///< fixed ASCII, or…
  std::string channel;  ///< …a channel's value, big-endian unsigned raw of `length` bytes
  std::uint32_t length = 0;
  double factor = 1.0;
  double offset = 0.0;
  bool writable = false;
  bool secured = false;
};

/// AUTOSAR Dem counter-based debouncing.
struct DebounceSpec {
  std::int32_t fail_step = 1;
  std::int32_t pass_step = 1;
  std::int32_t fail_threshold = 1;
  std::int32_t pass_threshold = -1;
  bool jump_down = true;
};

struct DtcSpec {
  std::uint32_t code = 0;  ///< 24 bits
  std::string name;        ///< lower snake case: the channel diag.dtc.<name>.status
  MonitorSpec monitor;
  DebounceSpec debounce;
  std::uint32_t confirmation_cycles = 1;
  std::uint32_t aging_cycles = 40;
};

struct RoutineSpec {
  std::uint16_t id = 0;
  std::string channel;
  double duration_s = 0.0;
};

inline constexpr double kDefaultDtcReadPeriod = 0.1;  ///< [s]

struct DiagnosticsSpec {
  std::size_t bus = 0;  ///< index into RigSpec::can
  std::uint32_t request_id = 0x7E0;
  std::uint32_t response_id = 0x7E8;
  std::uint32_t functional_id = 0x7DF;
  bool extended_ids = false;
  bool fd = false;
  std::uint8_t block_size = 0;
  double st_min_s = 0.0;
  std::uint8_t padding = 0xCC;
  std::vector<DidSpec> dids;
  std::vector<DtcSpec> dtcs;
  double monitor_period_s = 0.010;
  std::uint32_t security_mask = 0x5A5A5A5A;
  std::uint32_t security_seed = 0x12345678;
  std::vector<RoutineSpec> routines;
  double s3_s = 5.0;
  /// The rig's tester reads the DTCs this often [s]; 0 never; unset: the run decides
  /// (kDefaultDtcReadPeriod with the built-in ECU or a scenario's dtc gate, else never).
  std::optional<double> read_dtcs_every_s;
};

/// Checks the block `d` at `prefix` against the rig's buses; sets `out` when it is present and
/// valid (left empty when the rig has no diagnostics block, or it says `off: true`).
[[nodiscard]] ConfigErrors check_diagnostics(bool present, const Diagnostics& d,
                                             const std::vector<io::can::CanBusSpec>& buses,
                                             std::string_view prefix, const SourceMap& sources,
                                             std::optional<DiagnosticsSpec>& out);

}  // namespace hil::config
