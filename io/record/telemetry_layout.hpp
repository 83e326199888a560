#pragma once
// How to decode the messages of one telemetry.mcap topic back into channel values: built
// from the topic's MCAP schema (a Protobuf FileDescriptorSet) and channel metadata, not
// from hilsim's own tables, so files of older builds decode too. Sample topics map each
// double field to a channel name ("<field>.channel" in the metadata, else the topic's group
// and the field name); /events decodes to (tick, kind, text).
// Thread-safety: immutable after construction; decode() is const and reentrant.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "io/record/mcap/mcap_reader.hpp"

namespace hil::io::record {

struct TelemetryColumn {
  std::string channel;       ///< "vehicle.wheel.fl.speed"
  std::string unit;          ///< "rad/s"; "" when the file does not say
  std::uint32_t number = 0;  ///< Protobuf field number
};

struct TelemetrySample {
  std::int64_t tick = 0;
  double sim_time_s = 0.0;
  std::vector<double> values;  ///< one per column, in column order
};

struct TelemetryEvent {
  std::int64_t tick = 0;
  double sim_time_s = 0.0;
  std::string kind, text;
};

class TelemetryLayout {
 public:
  enum class Kind : std::uint8_t { samples, events };

  /// The layout of `channel` with `schema`, or an explanation of why it is not a hilsim
  /// telemetry topic (encoding not protobuf, schema unparsable, no int64 tick field, …).
  [[nodiscard]] static std::pair<std::optional<TelemetryLayout>, std::string> from(
      const McapSchema& schema, const McapChannel& channel);

  [[nodiscard]] Kind kind() const noexcept { return kind_; }
  [[nodiscard]] const std::string& topic() const noexcept { return topic_; }
  [[nodiscard]] const std::vector<TelemetryColumn>& columns() const noexcept { return columns_; }

  /// Decodes a sample message; false when the bytes are not a valid message of this layout.
  /// Fields absent from the message are 0. Reuses `out.values`' storage.
  [[nodiscard]] bool decode(std::span<const std::uint8_t> data, TelemetrySample& out) const;
  /// Decodes an /events message; false when malformed.
  [[nodiscard]] bool decode(std::span<const std::uint8_t> data, TelemetryEvent& out) const;

 private:
  [[nodiscard]] std::optional<std::size_t> column_of(std::uint32_t number) const noexcept;

  Kind kind_ = Kind::samples;
  std::string topic_;
  std::vector<TelemetryColumn> columns_;
  std::vector<std::pair<std::uint32_t, std::size_t>> by_number_;       // sorted (number, column)
  std::uint32_t tick_ = 0, sim_time_ = 0, kind_field_ = 0, text_ = 0;  // 0: absent
};

}  // namespace hil::io::record
