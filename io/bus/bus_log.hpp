#pragma once
// The run directory's bus.log: every input snapshot the bus task consumed, with the tick that
// consumed it, one line each, so that `hilsim replay` feeds the same snapshots at the same
// ticks (docs/bus.md "Recording and replay"). Text, one line per snapshot:
//   # hilsim bus.log 1
//   <tick> <region> <session, 16 hex digits> <region_seq> <writer tick> <status> <value>...
// Values are printed in the shortest form that reads back to the same double.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/bus/bus_exchange.hpp"

namespace hil::io::bus {

inline constexpr std::string_view kBusLogHeader = "# hilsim bus.log 1";

/// Appends one line (with its newline) to `out`. Not RT (allocates).
void append_bus_log_line(std::string& out, std::string_view region, const ConsumedSnapshot& s);

/// A bus.log read back: per region name, its snapshots in tick order.
struct BusLog {
  std::map<std::string, std::vector<ConsumedSnapshot>, std::less<>> regions;
  std::vector<std::string> bad_lines;  ///< "bus.log:LINE: what"
  std::int64_t last_tick = -1;
};

/// Reads `text` (a whole bus.log); a malformed line is reported in bad_lines, never fatal. A
/// last line without its newline (a run killed mid-write) is ignored.
[[nodiscard]] BusLog parse_bus_log(std::string_view text);

/// The recorded snapshots fed back at their ticks: a BusInput for replay. Regions are the
/// task's schema's; snapshots of regions the rig does not have are skipped (counted).
class RecordedInput final : public BusInput {
 public:
  RecordedInput(const BusLog& log, const BusSchema& schema);
  Read read(std::uint32_t region, std::int64_t tick, RegionSnapshot& out) noexcept override;
  [[nodiscard]] std::size_t unknown_regions() const noexcept { return unknown_; }

 private:
  std::vector<const std::vector<ConsumedSnapshot>*> by_region_;
  std::vector<std::size_t> next_;
  std::size_t unknown_ = 0;
};

}  // namespace hil::io::bus
