#include "io/record/telemetry_reader.hpp"

#include <deque>
#include <map>
#include <optional>

namespace hil::io::record {

namespace {

class Decoder final : public McapVisitor {
 public:
  Decoder(TelemetryVisitor& out, TelemetryReadReport& report) : out_(out), report_(report) {}

  void on_schema(const McapSchema& schema) override { schemas_.emplace(schema.id, schema); }

  void on_channel(const McapChannel& channel) override {
    const auto schema = schemas_.find(channel.schema_id);
    if (schema == schemas_.end()) {
      report_.skipped_topics.push_back(channel.topic + ": no schema");
      return;
    }
    auto [layout, why_not] = TelemetryLayout::from(schema->second, channel);
    if (!layout) {
      report_.skipped_topics.push_back(channel.topic + ": " + why_not);
      return;
    }
    const std::size_t topic = layouts_.size();
    layouts_.push_back(std::move(*layout));
    topic_of_channel_[channel.id] = topic;
    out_.on_topic(topic, layouts_.back());
  }

  void on_message(const McapMessage& m) override {
    const auto it = topic_of_channel_.find(m.channel_id);
    if (it == topic_of_channel_.end()) return;
    const TelemetryLayout& layout = layouts_[it->second];
    if (layout.kind() == TelemetryLayout::Kind::events) {
      if (!layout.decode(m.data, event_)) return count_undecodable();
      ++report_.events;
      out_.on_event(m.log_time, event_);
    } else {
      if (!layout.decode(m.data, sample_)) return count_undecodable();
      ++report_.samples;
      out_.on_sample(it->second, m.log_time, sample_);
    }
  }

  void on_metadata(std::string_view name, const StringMap& metadata) override {
    out_.on_metadata(name, metadata);
  }
  void on_progress(std::uint64_t offset, std::uint64_t total) override {
    out_.on_progress(offset, total);
  }

 private:
  void count_undecodable() { ++report_.undecodable; }

  TelemetryVisitor& out_;
  TelemetryReadReport& report_;
  std::map<std::uint16_t, McapSchema> schemas_;
  std::map<std::uint16_t, std::size_t> topic_of_channel_;
  std::deque<TelemetryLayout> layouts_;  // stable: visitors keep references
  TelemetrySample sample_;
  TelemetryEvent event_;
};

}  // namespace

TelemetryReadReport read_telemetry(std::span<const std::uint8_t> file, TelemetryVisitor& visitor) {
  TelemetryReadReport report;
  Decoder decoder(visitor, report);
  report.mcap = read_mcap(file, decoder);
  return report;
}

}  // namespace hil::io::record
