#pragma once
// A fault given while a run goes on (docs/faults.md "Commands"): from the automation API as
// JSON, or read back from a run's commands.log as one line of Protobuf text. Checked against
// the running rig's channels and CAN buses as a rig file's faults are. Not the RT thread.
// Thread-safety: functions of their arguments.

#include <span>
#include <string>
#include <string_view>

#include "config/fault_spec.hpp"
#include "io/can/mapping/can_bus_spec.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::config {

struct FaultCommand {
  FaultSpec settings;  ///< checked
  std::string text;    ///< the fault as one line of Protobuf text (what commands.log holds)
};

/// A fault of the API (docs/api.md `fault`, the JSON form of config/fault.proto). Throws
/// std::invalid_argument saying what is wrong (not a fault; every check that fails).
[[nodiscard]] FaultCommand parse_fault_json(std::string_view json, const rt::ChannelTable& table,
                                            const std::vector<io::can::CanBusSpec>& buses);

/// A fault of commands.log (one line of Protobuf text). Throws std::invalid_argument.
[[nodiscard]] FaultCommand parse_fault_text(std::string_view text, const rt::ChannelTable& table,
                                            const std::vector<io::can::CanBusSpec>& buses);

/// The name of the fault in `text` (one line of Protobuf text), without checking it against a
/// rig (a replay leaving it out). Throws std::invalid_argument when it is not a fault.
[[nodiscard]] std::string fault_name_of_text(std::string_view text);

}  // namespace hil::config
