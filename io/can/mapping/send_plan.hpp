#pragma once
// How a simulated node sends one message, as the DBC's interaction-layer attributes say
// (docs/can.md "Rest-bus simulation"): GenMsgSendType (mapped by name, so Vector's list and a
// production file's own list both work), GenMsgCycleTime, GenMsgCycleTimeFast,
// GenMsgStartDelayTime, GenMsgDelayTime, GenMsgNrOfRepetition — each message's own BA_ value,
// else the file's BA_DEF_DEF_ default. Setup phase (allocates, pure).

#include <cstdint>
#include <optional>
#include <string>

#include "io/can/dbc/dbc_model.hpp"

namespace hil::io::can {

/// The parts a send type is made of; "cyclic and spontaneous" is cyclic + on_change.
struct SendPlan {
  bool cyclic = false;     ///< every cycle_ms from the start delay
  bool on_change = false;  ///< when a signal's value changes (and once at the start delay)
  bool if_active = false;  ///< every fast cycle while a signal is not at its inactive value
  /// The on-change part sends at the start delay too (with its repetitions), as if every
  /// signal had changed to its start value; false for NoMsgSendType: only a change sends it.
  bool at_start = true;
  std::optional<double> cycle_ms;       ///< GenMsgCycleTime (> 0)
  std::optional<double> fast_cycle_ms;  ///< GenMsgCycleTimeFast (> 0)
  double start_delay_ms = 0.0;          ///< GenMsgStartDelayTime
  double min_gap_ms = 0.0;              ///< GenMsgDelayTime: between two frames of a change
  /// GenMsgNrOfRepetition: extra frames after a change (…WithRepetition send types, or a
  /// message that sets its own count)
  std::uint32_t repetitions = 0;
  std::string send_type;             ///< the DBC's GenMsgSendType name ("" when the file has none)
  bool send_type_is_default = true;  ///< the name came from BA_DEF_DEF_ (or there is none)

  /// "cyclic 100 ms, start delay 50 ms", "on change, 3 repetitions every 20 ms, gap 10 ms".
  [[nodiscard]] std::string describe() const;
};

/// The plan of `message` in `db`, or nullopt with `problem` set ("GenMsgSendType "X" is not
/// a send type hilsim knows …", "GenMsgSendType "Cyclic" but no GenMsgCycleTime").
/// A message with no send type and no cycle time is sent on change only (not at the start); a
/// cyclic send type that only a default gives, with no cycle time, likewise.
[[nodiscard]] std::optional<SendPlan> plan_sending(const dbc::Database& db,
                                                   const dbc::Message& message,
                                                   std::string& problem);

}  // namespace hil::io::can
