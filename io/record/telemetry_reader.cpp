#include "io/record/telemetry_reader.hpp"

#include "io/record/mapped_file.hpp"

#include <algorithm>
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
    // Foxglove's own messages (the 3D scene: io/scene) are for viewers, not channel samples
    if (schema->second.name.starts_with("foxglove.")) return;
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

namespace {

/// Forwards one file's topics and samples under the set's topic numbers.
class PartVisitor final : public TelemetryVisitor {
 public:
  PartVisitor(TelemetryVisitor& out, std::map<std::string, std::size_t>& topics)
      : out_(out), topics_(topics) {}
  void on_topic(std::size_t topic, const TelemetryLayout& layout) override {
    const auto [it, added] = topics_.try_emplace(layout.topic(), topics_.size());
    if (local_.size() <= topic) local_.resize(topic + 1);
    local_[topic] = it->second;
    if (added) out_.on_topic(it->second, layout);
  }
  void on_sample(std::size_t topic, std::uint64_t log_time_ns,
                 const TelemetrySample& sample) override {
    out_.on_sample(local_.at(topic), log_time_ns, sample);
  }
  void on_event(std::uint64_t log_time_ns, const TelemetryEvent& event) override {
    out_.on_event(log_time_ns, event);
  }
  void on_metadata(std::string_view name, const StringMap& metadata) override {
    out_.on_metadata(name, metadata);
  }
  void on_progress(std::uint64_t offset, std::uint64_t total) override {
    out_.on_progress(offset, total);
  }

 private:
  TelemetryVisitor& out_;
  std::map<std::string, std::size_t>& topics_;
  std::vector<std::size_t> local_;
};

}  // namespace

std::filesystem::path telemetry_part_path(const std::filesystem::path& first, std::size_t part) {
  if (part == 0) return first;
  std::filesystem::path p = first;
  p.replace_filename(first.stem().string() + "." + std::to_string(part) +
                     first.extension().string());
  return p;
}

std::vector<std::filesystem::path> telemetry_parts(const std::filesystem::path& first) {
  std::vector<std::filesystem::path> out{first};
  for (std::size_t part = 1;; ++part) {
    std::filesystem::path p = telemetry_part_path(first, part);
    if (!std::filesystem::exists(p)) return out;
    out.push_back(std::move(p));
  }
}

TelemetryReadReport read_telemetry_files(const std::vector<std::filesystem::path>& files,
                                         TelemetryVisitor& visitor) {
  TelemetryReadReport total;
  std::map<std::string, std::size_t> topics;
  for (const std::filesystem::path& path : files) {
    const MappedFile file(path);
    PartVisitor part(visitor, topics);
    TelemetryReadReport r = read_telemetry(file.bytes(), part);
    total.samples += r.samples;
    total.events += r.events;
    total.undecodable += r.undecodable;
    for (std::string& s : r.skipped_topics) {
      if (std::find(total.skipped_topics.begin(), total.skipped_topics.end(), s) ==
          total.skipped_topics.end()) {
        total.skipped_topics.push_back(std::move(s));
      }
    }
    const std::uint64_t messages = total.mcap.messages + r.mcap.messages;
    const std::uint64_t chunks = total.mcap.chunks + r.mcap.chunks;
    total.mcap = std::move(r.mcap);
    total.mcap.messages = messages;
    total.mcap.chunks = chunks;
    if (total.mcap.end != McapEnd::complete) {
      if (!total.mcap.problem.empty())
        total.mcap.problem = path.filename().string() + ": " + total.mcap.problem;
      break;
    }
  }
  return total;
}

}  // namespace hil::io::record
