#pragma once
// The wire format of `hilsim.console.v1` (docs/console.md): client messages parsed from JSON
// text frames (the binary frames the server sends: console_frames.hpp). Pure functions, no
// I/O; a fuzz target feeds parse_client_message() (tests/fuzz/console_message_fuzz.cpp).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "rt_core/channel_condition.hpp"

namespace hil::io::console {

struct Subscribe {
  std::uint16_t id = 0;               ///< 1..65535
  std::vector<std::string> channels;  ///< names or wildcard patterns
  double backfill_s = 0.0;
};
struct Unsubscribe {
  std::uint16_t id = 0;
};
struct CanView {
  bool on = false;
};
struct Stop {};
struct Ping {};
/// The operator lock: one operator steers at a time (docs/api.md "Access").
struct Lock {
  bool take = true;  ///< false: give it back
};
/// An operator's command for the loop (docs/api.md): applied at a tick, acknowledged with it.
struct Command {
  enum class Kind : std::uint8_t { write, release, fault, clear_fault, marker, uds };
  Kind kind = Kind::write;
  std::vector<std::pair<std::string, double>> values;  ///< write: channel → value
  std::vector<std::string> channels;                   ///< release
  std::string fault_json;                              ///< fault: the fault as JSON text
  std::string name;  ///< clear_fault; marker: its text; uds: "[functional ]HEX"
};

/// Lock-step of a paused run (`hilsim run --speed max --paused`): step `ticks` (or `seconds`),
/// pause, resume.
struct Step {
  enum class Kind : std::uint8_t { step, pause, resume };
  Kind kind = Kind::step;
  std::int64_t ticks = 0;  ///< step: > 0, or 0 with seconds
  double seconds = 0.0;
};

/// The values of channels (names or wildcard patterns) at the latest tick, all of one tick.
struct Read {
  std::vector<std::string> channels;
};

/// `info`: the rig, its run and the caller's role, as a reply.
struct Info {};
/// `channels`: the channels a wildcard pattern names.
struct Channels {
  std::string pattern = "*";
};

/// A capture trigger as written: now, at a tick, or on a condition ("x > 1") — its edge (it
/// becomes true) or its level (it holds).
struct TriggerRequest {
  enum class Kind : std::uint8_t { now, tick, condition };
  Kind kind = Kind::now;
  std::int64_t tick = 0;
  rt::ConditionText condition;
  bool edge = true;
};

/// `capture` (docs/api.md): channels, decimation, start and stop triggers, single or normal.
struct CaptureRequest {
  std::uint16_t id = 1;
  std::vector<std::string> channels;
  std::int64_t decimation = 1;
  TriggerRequest start;
  double pre_trigger_s = 0.0;
  std::int64_t pre_trigger_ticks = 0;
  double duration_s = 0.0;  ///< 0 with duration_ticks 0 and no stop: until cancelled
  std::int64_t duration_ticks = 0;
  std::optional<TriggerRequest> stop;
  bool repeat = false;
};
struct CaptureCancel {
  std::uint16_t id = 1;
};

/// `wait_for`: until a condition holds, at most `timeout_s` of simulated time; `step`: a paused
/// run is stepped until then (the operator's).
struct WaitFor {
  rt::ConditionText condition;
  double timeout_s = 10.0;
  bool step = false;
};

/// `drive` (docs/console.md "Driving"): the operator's controls in the page, raw — the server
/// shapes them as the rig's driver block says (io/input/driver_input.hpp). Any of the three.
struct Drive {
  struct Gamepad {
    std::vector<double> axes;     ///< −1..1 each (the Gamepad API's axes)
    std::vector<double> buttons;  ///< 0..1 each (its buttons' values)
  };
  std::optional<bool> human;       ///< "mode": "human" takes the wheel, "auto" gives it back
  std::optional<Gamepad> gamepad;  ///< "gamepad": {"axes": […], "buttons": […]}
  std::optional<std::vector<std::string>> keys;  ///< "keys": the keys held (KeyboardEvent.code)
};

using ClientRequest =
    std::variant<Subscribe, Unsubscribe, CanView, Stop, Ping, Command, Read, Step, Lock, Info,
                 Channels, CaptureRequest, CaptureCancel, WaitFor, Drive>;

/// A parsed client message: the request, or why it was refused; `req` echoed either way.
struct ClientMessage {
  std::optional<std::int64_t> req;
  std::optional<ClientRequest> request;
  std::string error;  ///< "" when request is set
};

/// Parses one JSON text frame. Never throws; an unknown type, bad JSON or a missing or
/// mistyped field gives a message naming it.
[[nodiscard]] ClientMessage parse_client_message(std::string_view text) noexcept;

}  // namespace hil::io::console
