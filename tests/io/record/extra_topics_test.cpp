// Extra topics in telemetry.mcap (io/record/extra_topics.hpp; the 3D scene uses them): their
// channels and file-start messages in every file, split files included, and their per-sample
// messages at their own rate from the recorded ticks' values, on the recorder's thread.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "io/record/extra_topics.hpp"
#include "io/record/mapped_file.hpp"
#include "io/record/mcap/mcap_reader.hpp"
#include "io/record/telemetry_reader.hpp"
#include "io/record/telemetry_recorder.hpp"
#include "tests/io/record/recording_fixture.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::record {
namespace {

using config::testing::TempDir;

/// "/start" once per file (the file's first tick), "/sample" at `rate` Hz: each message holds
/// its tick and the value of channel 0 it was given.
class FakeTopics final : public ExtraTopics {
 public:
  explicit FakeTopics(double rate, std::string package = "test")
      : rate_(rate), package_(std::move(package)) {}
  [[nodiscard]] std::vector<ExtraTopic> topics() const override {
    return {{.topic = "/start", .schema_name = package_ + ".Start", .schema = {1, 2, 3}},
            {.topic = "/sample", .schema_name = package_ + ".Sample", .schema = {4, 5}}};
  }
  [[nodiscard]] double rate_hz() const noexcept override { return rate_; }
  void file_start(std::int64_t tick, std::uint64_t /*log_time*/, const Write& write) override {
    write(0, bytes_of(tick, -1.0));
  }
  void sample(std::int64_t tick, std::uint64_t /*log_time*/, std::span<const double> values,
              const Write& write) override {
    threads.insert(std::this_thread::get_id());
    write(1, bytes_of(tick, values[0]));
  }
  std::set<std::thread::id> threads;

 private:
  static std::vector<std::uint8_t> bytes_of(std::int64_t tick, double value) {
    std::vector<std::uint8_t> out(16);
    std::memcpy(out.data(), &tick, 8);
    std::memcpy(out.data() + 8, &value, 8);
    return out;
  }
  double rate_;
  std::string package_;
};

struct Message {
  std::string topic;
  std::uint64_t log_time = 0;
  std::int64_t tick = 0;
  double value = 0.0;
};

/// What a file holds of the extra topics.
struct Contents {
  std::map<std::string, std::string> schema_of;  // topic → schema name
  std::vector<Message> messages;                 // of /start and /sample, in file order
};

struct Collect final : McapVisitor {
  void on_schema(const McapSchema& s) override { schemas[s.id] = s.name; }
  void on_channel(const McapChannel& c) override {
    topics[c.id] = c.topic;
    out.schema_of[c.topic] = schemas.at(c.schema_id);
  }
  void on_message(const McapMessage& m) override {
    const std::string& topic = topics.at(m.channel_id);
    if (topic != "/start" && topic != "/sample") return;
    Message message{.topic = topic, .log_time = m.log_time};
    EXPECT_EQ(m.data.size(), 16U);
    std::memcpy(&message.tick, m.data.data(), 8);
    std::memcpy(&message.value, m.data.data() + 8, 8);
    out.messages.push_back(message);
  }
  std::map<std::uint16_t, std::string> schemas, topics;
  Contents out;
};

Contents read(const std::filesystem::path& path) {
  const MappedFile file(path);
  Collect c;
  const McapReadReport report = read_mcap(file.bytes(), c);
  EXPECT_EQ(report.end, McapEnd::complete) << report.problem;
  return c.out;
}

TEST(ExtraTopics, EachFileStartsWithTheStaticMessagesAndSamplesFollowAtTheirRate) {
  TempDir dir;
  const testing::VehicleTable table;
  FakeTopics topics(100.0);  // every 10th tick of 1 kHz
  const std::uint64_t start = 5'000'000'000;
  {
    TelemetryRecorder rec(table, dir.path() / "telemetry.mcap",
                          {.tick_period_ns = 1'000'000,
                           .start_time_ns = start,
                           .chunk_bytes = 4096,
                           .split_ticks = 300,
                           .extra_topics = &topics});
    (void)testing::push_ticks(rec, 1000, table.size());
    rec.stop();
    EXPECT_EQ(rec.error(), "");
    EXPECT_EQ(rec.counters().files, 4U);
  }
  EXPECT_EQ(topics.threads.size(), 1U);
  EXPECT_FALSE(topics.threads.contains(std::this_thread::get_id())) << "the recorder's thread";
  const auto parts = telemetry_parts(dir.path() / "telemetry.mcap");
  ASSERT_EQ(parts.size(), 4U);
  std::vector<std::int64_t> sampled;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const Contents c = read(parts[p]);
    EXPECT_EQ(c.schema_of.at("/start"), "test.Start");
    EXPECT_EQ(c.schema_of.at("/sample"), "test.Sample");
    ASSERT_FALSE(c.messages.empty());
    const Message& first = c.messages.front();
    const std::int64_t first_tick = static_cast<std::int64_t>(p) * 300;
    EXPECT_EQ(first.topic, "/start") << "part " << p << ": the static message comes first";
    EXPECT_EQ(first.tick, first_tick);
    EXPECT_EQ(first.log_time, start + static_cast<std::uint64_t>(first_tick) * 1'000'000);
    EXPECT_EQ(std::ranges::count(c.messages, std::string("/start"), &Message::topic), 1);
    for (const Message& m : c.messages) {
      if (m.topic != "/sample") continue;
      EXPECT_EQ(m.tick % 10, 0) << "at 100 Hz";
      EXPECT_EQ(m.log_time, start + static_cast<std::uint64_t>(m.tick) * 1'000'000);
      EXPECT_EQ(m.value, testing::value_of(m.tick, 0)) << "the values of its own tick";
      sampled.push_back(m.tick);
    }
  }
  ASSERT_EQ(sampled.size(), 100U);
  for (std::size_t i = 0; i < sampled.size(); ++i) {
    EXPECT_EQ(sampled[i], static_cast<std::int64_t>(10 * i));
  }
}

TEST(ExtraTopics, TheirRateAboveTheGroupsRatesPutsTheirTicksInTheRing) {
  TempDir dir;
  const testing::VehicleTable table;
  FakeTopics topics(500.0);  // groups at 100 Hz, the extra topics at 500 Hz
  {
    TelemetryRecorder rec(
        table, dir.path() / "t.mcap",
        {.tick_period_ns = 1'000'000, .max_rate_hz = 100.0, .extra_topics = &topics});
    EXPECT_EQ(rec.decimation(), 2U);
    (void)testing::push_ticks(rec, 1000, table.size());
    rec.stop();
  }
  const Contents c = read(dir.path() / "t.mcap");
  const auto samples = std::ranges::count(c.messages, std::string("/sample"), &Message::topic);
  EXPECT_EQ(samples, 500);
}

/// What the channel reader (export, replay) makes of a recording with extra topics.
TelemetryReadReport read_channels(const std::string& package, std::size_t& samples) {
  TempDir dir;
  const testing::VehicleTable table;
  FakeTopics topics(100.0, package);
  {
    TelemetryRecorder rec(table, dir.path() / "t.mcap",
                          {.tick_period_ns = 1'000'000, .extra_topics = &topics});
    (void)testing::push_ticks(rec, 100, table.size());
    rec.stop();
  }
  struct Count final : TelemetryVisitor {
    void on_topic(std::size_t, const TelemetryLayout&) override {}
    void on_sample(std::size_t, std::uint64_t, const TelemetrySample&) override { ++samples; }
    std::size_t samples = 0;
  } count;
  const MappedFile file(dir.path() / "t.mcap");
  TelemetryReadReport r = read_telemetry(file.bytes(), count);
  samples = count.samples;
  return r;
}

TEST(ExtraTopics, TheChannelReaderSkipsThemReportingOnlyThoseNotFoxglovesOwn) {
  std::size_t samples = 0;
  const TelemetryReadReport foreign = read_channels("test", samples);
  EXPECT_EQ(foreign.mcap.end, McapEnd::complete);
  EXPECT_EQ(foreign.skipped_topics.size(), 2U) << "an unknown schema: reported";
  EXPECT_EQ(samples, 400U) << "the four groups' samples, 100 ticks";
  const TelemetryReadReport scene = read_channels("foxglove", samples);
  EXPECT_TRUE(scene.skipped_topics.empty()) << "the 3D scene's topics: no warning";
  EXPECT_EQ(scene.undecodable, 0U);
  EXPECT_EQ(samples, 400U);
}

}  // namespace
}  // namespace hil::io::record
