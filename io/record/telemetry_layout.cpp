#include "io/record/telemetry_layout.hpp"

#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/stubs/logging.h>

#include <algorithm>
#include <bit>
#include <climits>

#include "io/record/protobuf_wire.hpp"
#include "io/record/telemetry_schema.hpp"

namespace hil::io::record {

namespace pb = google::protobuf;

namespace {

const pb::DescriptorProto* find_message(const pb::FileDescriptorSet& set, const std::string& name) {
  for (const pb::FileDescriptorProto& file : set.file()) {
    const std::string prefix = file.package().empty() ? "" : file.package() + ".";
    for (const pb::DescriptorProto& m : file.message_type()) {
      if (prefix + m.name() == name) return &m;
    }
  }
  return nullptr;
}

std::string metadata_or(const StringMap& metadata, const std::string& key,
                        const std::string& fallback) {
  const auto it = metadata.find(key);
  return it == metadata.end() ? fallback : it->second;
}

}  // namespace

std::pair<std::optional<TelemetryLayout>, std::string> TelemetryLayout::from(
    const McapSchema& schema, const McapChannel& channel) {
  if (schema.encoding != kProtobufEncoding || channel.message_encoding != kProtobufEncoding) {
    return {std::nullopt, "not Protobuf-encoded"};
  }
  pb::FileDescriptorSet set;
  const pb::LogSilencer quiet;  // a bad schema is reported below, not logged by libprotobuf
  if (schema.data.size() > INT_MAX ||
      !set.ParseFromArray(schema.data.data(), static_cast<int>(schema.data.size()))) {
    return {std::nullopt, "schema '" + schema.name + "' is not a FileDescriptorSet"};
  }
  const pb::DescriptorProto* message = find_message(set, schema.name);
  if (message == nullptr) {
    return {std::nullopt, "schema data do not define message '" + schema.name + "'"};
  }
  TelemetryLayout layout;
  layout.topic_ = channel.topic;
  layout.kind_ = schema.name == kEventMessageName ? Kind::events : Kind::samples;
  const std::string group = group_of_topic(channel.topic);
  for (const pb::FieldDescriptorProto& f : message->field()) {
    const auto number = static_cast<std::uint32_t>(f.number());
    const bool is_double = f.type() == pb::FieldDescriptorProto::TYPE_DOUBLE;
    const bool is_string = f.type() == pb::FieldDescriptorProto::TYPE_STRING;
    if (f.label() == pb::FieldDescriptorProto::LABEL_REPEATED || f.number() <= 0) continue;
    if (f.name() == kTickFieldName && f.type() == pb::FieldDescriptorProto::TYPE_INT64) {
      layout.tick_ = number;
    } else if (f.name() == kSimTimeFieldName && is_double) {
      layout.sim_time_ = number;
    } else if (layout.kind_ == Kind::events && is_string && f.name() == "kind") {
      layout.kind_field_ = number;
    } else if (layout.kind_ == Kind::events && is_string && f.name() == "text") {
      layout.text_ = number;
    } else if (layout.kind_ == Kind::samples && is_double) {
      const std::string fallback = group.empty() ? f.name() : group + "." + f.name();
      layout.columns_.push_back(
          {.channel = metadata_or(channel.metadata, f.name() + ".channel", fallback),
           .unit = metadata_or(channel.metadata, f.name() + ".unit", ""),
           .number = number});
      layout.by_number_.emplace_back(number, layout.columns_.size() - 1);
    }
  }
  if (layout.tick_ == 0) {
    return {std::nullopt, "message '" + schema.name + "' has no int64 field 'tick'"};
  }
  std::sort(layout.by_number_.begin(), layout.by_number_.end());
  return {std::move(layout), ""};
}

std::optional<std::size_t> TelemetryLayout::column_of(std::uint32_t number) const noexcept {
  const auto it = std::lower_bound(by_number_.begin(), by_number_.end(),
                                   std::pair<std::uint32_t, std::size_t>{number, 0});
  if (it == by_number_.end() || it->first != number) return std::nullopt;
  return it->second;
}

bool TelemetryLayout::decode(std::span<const std::uint8_t> data, TelemetrySample& out) const {
  out.tick = 0;
  out.sim_time_s = 0.0;
  out.values.assign(columns_.size(), 0.0);
  wire::WireReader in(data);
  wire::WireField f;
  while (in.next(f)) {
    const bool fixed64 = f.type == wire::WireType::fixed64;
    if (f.number == tick_) {
      if (f.type != wire::WireType::varint) return false;
      out.tick = static_cast<std::int64_t>(f.scalar);
    } else if (f.number == sim_time_) {
      if (!fixed64) return false;
      out.sim_time_s = std::bit_cast<double>(f.scalar);
    } else if (const auto column = column_of(f.number)) {
      if (!fixed64) return false;
      out.values[*column] = std::bit_cast<double>(f.scalar);
    }
  }
  return !in.error();
}

bool TelemetryLayout::decode(std::span<const std::uint8_t> data, TelemetryEvent& out) const {
  out = TelemetryEvent{};
  wire::WireReader in(data);
  wire::WireField f;
  const auto text = [&] { return std::string(f.bytes.begin(), f.bytes.end()); };
  while (in.next(f)) {
    const bool bytes = f.type == wire::WireType::length_delimited;
    if (f.number == tick_ && f.type == wire::WireType::varint) {
      out.tick = static_cast<std::int64_t>(f.scalar);
    } else if (f.number == sim_time_ && f.type == wire::WireType::fixed64) {
      out.sim_time_s = std::bit_cast<double>(f.scalar);
    } else if (f.number == kind_field_ && bytes) {
      out.kind = text();
    } else if (f.number == text_ && bytes) {
      out.text = text();
    } else if (f.number == tick_ || f.number == sim_time_ || f.number == kind_field_ ||
               f.number == text_) {
      return false;  // a known field with the wrong wire type
    }
  }
  return !in.error();
}

}  // namespace hil::io::record
