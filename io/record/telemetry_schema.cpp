#include "io/record/telemetry_schema.hpp"

#include <bit>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "io/record/protobuf_wire.hpp"

namespace hil::io::record {

namespace pb = google::protobuf;

namespace {

constexpr std::string_view kTopLevelTopic = "/_top";
constexpr std::uint32_t kFirstChannelField = 3;

std::string group_of(std::string_view channel) {
  const auto dot = channel.rfind('.');
  return dot == std::string_view::npos ? std::string() : std::string(channel.substr(0, dot));
}

std::string last_segment(std::string_view channel) {
  const auto dot = channel.rfind('.');
  return std::string(dot == std::string_view::npos ? channel : channel.substr(dot + 1));
}

/// Field numbers 19000–19999 are reserved by Protobuf.
std::uint32_t field_number(std::size_t index) {
  const auto n = static_cast<std::uint32_t>(kFirstChannelField + index);
  return n >= 19000 ? n + 1000 : n;
}

void add_field(pb::DescriptorProto& message, std::string_view name, std::uint32_t number,
               pb::FieldDescriptorProto::Type type) {
  pb::FieldDescriptorProto* f = message.add_field();
  f->set_name(std::string(name));
  f->set_number(static_cast<int>(number));
  f->set_type(type);
  f->set_label(pb::FieldDescriptorProto::LABEL_OPTIONAL);
}

/// A leading comment on field `index` of the file's only message, which descriptor-aware
/// tools show next to the field.
void comment_field(pb::FileDescriptorProto& file, int index, const std::string& text) {
  pb::SourceCodeInfo::Location* at = file.mutable_source_code_info()->add_location();
  const int message_type = pb::FileDescriptorProto::kMessageTypeFieldNumber;
  const int field = pb::DescriptorProto::kFieldFieldNumber;
  for (const int p : {message_type, 0, field, index}) {
    at->add_path(p);
  }
  for (const int s : {index, 0, 0}) at->add_span(s);
  at->set_leading_comments(" " + text + "\n");
}

/// Checks the file the way a reader will (names, numbers) and serializes it as a set.
std::vector<std::uint8_t> to_descriptor_set(const pb::FileDescriptorProto& file) {
  pb::DescriptorPool pool;
  if (pool.BuildFile(file) == nullptr) {
    throw std::invalid_argument("telemetry schema '" + file.name() + "' is not a valid proto");
  }
  pb::FileDescriptorSet set;
  *set.add_file() = file;
  std::vector<std::uint8_t> out(set.ByteSizeLong());
  set.SerializeToArray(out.data(), static_cast<int>(out.size()));
  return out;
}

pb::FileDescriptorProto new_file(std::string_view message) {
  pb::FileDescriptorProto file;
  file.set_name("hil/telemetry/" + std::string(message) + ".proto");
  file.set_package(std::string(kTelemetryPackage));
  // proto2: proto3 refuses fields whose JSON names collide ("a_1" and "a1"), which valid
  // channel names can do. Every field is written, so presence rules never matter.
  file.set_syntax("proto2");
  pb::DescriptorProto* m = file.add_message_type();
  m->set_name(std::string(message));
  add_field(*m, kTickFieldName, kTickField, pb::FieldDescriptorProto::TYPE_INT64);
  add_field(*m, kSimTimeFieldName, kSimTimeField, pb::FieldDescriptorProto::TYPE_DOUBLE);
  comment_field(file, 0, "the executive's tick k");
  comment_field(file, 1, "simulation time k·dt [s]");
  return file;
}

/// Message names: the group with '_' for '.', made unique ("a.b_c" and "a.b.c" collide).
std::string unique_message_name(const std::string& group, std::set<std::string>& taken) {
  std::string base = group.empty() ? "_top" : group;
  std::replace(base.begin(), base.end(), '.', '_');
  std::string name = base;
  for (int n = 2; !taken.insert(name).second; ++n) name = base + "_" + std::to_string(n);
  return name;
}

void describe_group(TelemetryGroup& g, const rt::ChannelTable& table, std::string_view message) {
  pb::FileDescriptorProto file = new_file(message);
  g.metadata["group"] = g.group;
  for (std::size_t i = 0; i < g.fields.size(); ++i) {
    const TelemetryField& f = g.fields[i];
    const rt::ChannelSpec& spec = table.spec(f.channel);
    add_field(*file.mutable_message_type(0), f.name, f.number,
              pb::FieldDescriptorProto::TYPE_DOUBLE);
    std::string comment =
        spec.name + " [" + spec.unit + "] " + std::string(to_string(spec.direction));
    if (!spec.description.empty()) comment += ": " + spec.description;
    comment_field(file, static_cast<int>(i + 2), comment);
    g.metadata[f.name + ".channel"] = spec.name;
    g.metadata[f.name + ".unit"] = spec.unit;
    g.metadata[f.name + ".direction"] = std::string(to_string(spec.direction));
    if (!spec.description.empty()) g.metadata[f.name + ".description"] = spec.description;
  }
  g.file_descriptor_set = to_descriptor_set(file);
}

/// The fields every hilsim message starts with, tick and sim_time, and room for `fields`
/// fixed64 fields after them: `out` is cleared and sized for it; returns where the next field
/// goes (the caller cuts `out` to what it wrote).
std::uint8_t* begin_message(std::int64_t tick, double sim_time_s, std::size_t fields,
                            std::vector<std::uint8_t>& out) {
  constexpr std::size_t kMaxTagBytes = 5;
  out.resize(kMaxTagBytes + wire::kMaxVarintBytes + (1 + fields) * wire::kMaxFixed64FieldBytes);
  std::uint8_t* p = out.data();
  p = wire::write_varint(
      p, (std::uint64_t{kTickField} << 3) | static_cast<std::uint8_t>(wire::WireType::varint));
  p = wire::write_varint(p, static_cast<std::uint64_t>(tick));  // int64: two's complement
  return wire::write_fixed64_field(p, kSimTimeField, sim_time_s);
}

/// Cuts `out` to the bytes written up to `end`.
void end_message(const std::uint8_t* end, std::vector<std::uint8_t>& out) {
  out.resize(static_cast<std::size_t>(end - out.data()));
}

}  // namespace

std::string topic_of_group(std::string_view group) {
  if (group.empty()) return std::string(kTopLevelTopic);
  std::string topic = "/" + std::string(group);
  std::replace(topic.begin(), topic.end(), '.', '/');
  return topic;
}

std::string group_of_topic(std::string_view topic) {
  if (topic == kTopLevelTopic) return {};
  std::string group(topic.starts_with('/') ? topic.substr(1) : topic);
  std::replace(group.begin(), group.end(), '/', '.');
  return group;
}

TelemetrySchema::TelemetrySchema(const rt::ChannelTable& table) : channel_count_(table.size()) {
  if (table.size() == 0) throw std::invalid_argument("telemetry needs at least one channel");
  std::unordered_map<std::string, std::size_t> index_of_group;
  std::vector<std::set<std::string>> field_names;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const rt::ChannelId id{static_cast<std::uint32_t>(i)};
    const std::string& name = table.spec(id).name;
    const auto [it, added] = index_of_group.try_emplace(group_of(name), groups_.size());
    if (added) {
      groups_.push_back({.group = it->first, .topic = topic_of_group(it->first)});
      field_names.push_back({std::string(kTickFieldName), std::string(kSimTimeFieldName)});
    }
    TelemetryGroup& g = groups_[it->second];
    std::string field = last_segment(name);
    if (field == kTickFieldName || field == kSimTimeFieldName) field += "_channel";
    while (!field_names[it->second].insert(field).second) field += '_';
    g.fields.push_back({.name = field, .number = field_number(g.fields.size()), .channel = id});
  }
  std::set<std::string> messages{"Event"};
  for (TelemetryGroup& g : groups_) {
    const std::string message = unique_message_name(g.group, messages);
    g.message_name = std::string(kTelemetryPackage) + "." + message;
    describe_group(g, table, message);
  }
}

void TelemetrySchema::encode(const TelemetryGroup& group, std::int64_t tick, double sim_time_s,
                             std::span<const double> values, std::vector<std::uint8_t>& out) {
  // Written in place into room for every field, then cut (the recorder's thread encodes ~170
  // fields per sample: appended byte by byte, that was a sixth of its work)
  std::uint8_t* p = begin_message(tick, sim_time_s, group.fields.size(), out);
  for (const TelemetryField& f : group.fields) {
    // proto3 omits zeros: a missing field reads as +0.0 (−0.0 has other bits and is written)
    const double v = values[f.channel.index];
    if (std::bit_cast<std::uint64_t>(v) == 0) continue;
    p = wire::write_fixed64_field(p, f.number, v);
  }
  end_message(p, out);
}

std::vector<std::uint8_t> event_file_descriptor_set() {
  pb::FileDescriptorProto file = new_file("Event");
  pb::DescriptorProto& m = *file.mutable_message_type(0);
  add_field(m, "kind", kEventKindField, pb::FieldDescriptorProto::TYPE_STRING);
  add_field(m, "text", kEventTextField, pb::FieldDescriptorProto::TYPE_STRING);
  comment_field(file, 2, "fault, event, …");
  comment_field(file, 3, "what happened");
  return to_descriptor_set(file);
}

void encode_event(std::int64_t tick, double sim_time_s, std::string_view kind,
                  std::string_view text, std::vector<std::uint8_t>& out) {
  end_message(begin_message(tick, sim_time_s, 0, out), out);
  wire::put_string(out, kEventKindField, kind);
  wire::put_string(out, kEventTextField, text);
}

}  // namespace hil::io::record
