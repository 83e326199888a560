#pragma once
// The wire format of `hilsim.console.v1` (docs/console.md): client messages parsed from JSON
// text frames, and the binary sample frame. Pure functions, no I/O; a fuzz target feeds
// parse_client_message() (tests/fuzz/console_message_fuzz.cpp).

#include <cstdint>
#include <optional>
#include <span>
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
  enum class Kind : std::uint8_t { write, release, fault, clear_fault, marker };
  Kind kind = Kind::write;
  std::vector<std::pair<std::string, double>> values;  ///< write: channel → value
  std::vector<std::string> channels;                   ///< release
  std::string fault_json;                              ///< fault: the fault as JSON text
  std::string name;                                    ///< clear_fault; marker: its text
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

using ClientRequest = std::variant<Subscribe, Unsubscribe, CanView, Stop, Ping, Command, Read, Step,
                                   Lock, Info, Channels, CaptureRequest, CaptureCancel, WaitFor>;

/// A parsed client message: the request, or why it was refused; `req` echoed either way.
struct ClientMessage {
  std::optional<std::int64_t> req;
  std::optional<ClientRequest> request;
  std::string error;  ///< "" when request is set
};

/// Parses one JSON text frame. Never throws; an unknown type, bad JSON or a missing or
/// mistyped field gives a message naming it.
[[nodiscard]] ClientMessage parse_client_message(std::string_view text) noexcept;

inline constexpr std::uint8_t kSamplesOp = 1;
inline constexpr std::uint8_t kBackfillFlag = 1;
inline constexpr std::size_t kSampleHeaderBytes = 32;

struct SampleFrameHeader {
  std::uint8_t flags = 0;
  std::uint16_t subscription = 0;
  std::uint32_t seq = 0;
  std::int64_t first_tick = 0;
  std::uint32_t tick_stride = 1;
  std::uint16_t samples = 0;
  std::uint16_t channels = 0;
  double wall_ms = 0.0;
};

/// Bytes of a frame of `samples` × `channels` (header, then values, minima, maxima).
[[nodiscard]] constexpr std::size_t sample_frame_bytes(std::size_t samples,
                                                       std::size_t channels) noexcept {
  return kSampleHeaderBytes + 3 * 8 * samples * channels;
}

/// Writes the header into `frame` (≥ kSampleHeaderBytes); the caller fills the arrays with
/// put_sample().
void put_header(std::span<std::uint8_t> frame, const SampleFrameHeader& h) noexcept;
/// Sets sample `i` of channel `c` (value, min, max) in a frame of `h.samples` × `h.channels`.
void put_sample(std::span<std::uint8_t> frame, const SampleFrameHeader& h, std::size_t c,
                std::size_t i, double value, double min, double max) noexcept;
/// Reads a frame's header back; nullopt when `frame` is not a whole samples frame.
[[nodiscard]] std::optional<SampleFrameHeader> read_header(
    std::span<const std::uint8_t> frame) noexcept;
/// Sample `i` of channel `c`, array `part` (0 value, 1 min, 2 max) of a frame read_header()
/// accepted.
[[nodiscard]] double read_sample(std::span<const std::uint8_t> frame, const SampleFrameHeader& h,
                                 std::size_t part, std::size_t c, std::size_t i) noexcept;

/// A capture's sample block (docs/api.md "capture"): a 32-byte header, then `samples` values
/// per channel, channel after channel (little-endian doubles).
inline constexpr std::uint8_t kCaptureOp = 2;
struct CaptureBlockHeader {
  std::uint16_t capture = 0;
  std::uint32_t seq = 0;  ///< blocks of this capture: 0, 1, …
  std::int64_t first_tick = 0;
  std::uint32_t decimation = 1;
  std::uint16_t samples = 0;
  std::uint16_t channels = 0;
  std::uint64_t lost = 0;  ///< samples of this capture lost so far
};
[[nodiscard]] constexpr std::size_t capture_block_bytes(std::size_t samples,
                                                        std::size_t channels) noexcept {
  return kSampleHeaderBytes + 8 * samples * channels;
}
/// A whole block: the header and `values` (channel-major, samples × channels).
[[nodiscard]] std::string capture_block(const CaptureBlockHeader& h,
                                        std::span<const double> values);

}  // namespace hil::io::console
