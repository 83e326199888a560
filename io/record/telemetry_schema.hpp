#pragma once
// What telemetry.mcap holds, derived from a ChannelTable at setup: one topic and one
// Protobuf message type per channel group (the channel name without its last segment):
//   vehicle.wheel.fl.speed, vehicle.wheel.fl.slip  →  topic /vehicle/wheel/fl,
//   message hil.telemetry.vehicle_wheel_fl { int64 tick = 1; double sim_time = 2;
//                                            double speed = 3; double slip = 4; }
// (proto2 syntax, every field written; a channel whose last segment is "tick" or "sim_time"
// becomes the field "tick_channel" / "sim_time_channel").
// Each schema is a serialized google.protobuf.FileDescriptorSet (MCAP "protobuf" schema
// encoding) whose fields carry the channel name, unit, direction and description as
// comments; the MCAP channel's metadata map carries the same per field
// ("speed.channel", "speed.unit", "speed.direction", "speed.description").
// Events and faults go to the topic /events, message hil.telemetry.Event.
// Thread-safety: immutable after construction; encode() is static and reentrant.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/record/byte_io.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::io::record {

inline constexpr std::string_view kTelemetryPackage = "hil.telemetry";
inline constexpr std::uint32_t kTickField = 1;     ///< int64: the executive's tick
inline constexpr std::uint32_t kSimTimeField = 2;  ///< double: tick·period [s]
inline constexpr std::string_view kTickFieldName = "tick";
inline constexpr std::string_view kSimTimeFieldName = "sim_time";

inline constexpr std::string_view kEventTopic = "/events";
inline constexpr std::string_view kEventMessageName = "hil.telemetry.Event";
inline constexpr std::uint32_t kEventKindField = 3;  ///< string: "fault", "event", …
inline constexpr std::uint32_t kEventTextField = 4;  ///< string: what happened

struct TelemetryField {
  std::string name;          ///< Protobuf field name: the channel's last segment
  std::uint32_t number = 0;  ///< Protobuf field number (3, 4, …)
  rt::ChannelId channel;     ///< where the value comes from in the table
};

struct TelemetryGroup {
  std::string group;         ///< "vehicle.wheel.fl"
  std::string topic;         ///< "/vehicle/wheel/fl"
  std::string message_name;  ///< "hil.telemetry.vehicle_wheel_fl"
  std::vector<TelemetryField> fields;
  std::vector<std::uint8_t> file_descriptor_set;  ///< the MCAP schema data
  StringMap metadata;                             ///< the MCAP channel metadata
};

class TelemetrySchema {
 public:
  /// Setup: groups every channel of `table`. Throws std::invalid_argument when the table
  /// is empty.
  explicit TelemetrySchema(const rt::ChannelTable& table);

  [[nodiscard]] std::span<const TelemetryGroup> groups() const noexcept { return groups_; }
  [[nodiscard]] std::size_t channel_count() const noexcept { return channel_count_; }

  /// Encodes `group`'s message for one sample into `out` (cleared first). `values` holds
  /// the whole table's values, indexed by ChannelId. Allocates only while `out` grows.
  static void encode(const TelemetryGroup& group, std::int64_t tick, double sim_time_s,
                     std::span<const double> values, std::vector<std::uint8_t>& out);

 private:
  std::vector<TelemetryGroup> groups_;
  std::size_t channel_count_ = 0;
};

/// The FileDescriptorSet of hil.telemetry.Event { int64 tick = 1; double sim_time = 2;
/// string kind = 3; string text = 4; }.
[[nodiscard]] std::vector<std::uint8_t> event_file_descriptor_set();

/// Encodes one event into `out` (cleared first).
void encode_event(std::int64_t tick, double sim_time_s, std::string_view kind,
                  std::string_view text, std::vector<std::uint8_t>& out);

/// "vehicle.wheel.fl" → "/vehicle/wheel/fl"; "" (single-segment channels) → "/_top".
[[nodiscard]] std::string topic_of_group(std::string_view group);
/// The inverse of topic_of_group().
[[nodiscard]] std::string group_of_topic(std::string_view topic);

}  // namespace hil::io::record
