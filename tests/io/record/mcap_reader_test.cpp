// The product reader (io/record/mcap/mcap_reader + telemetry_reader): round trip to (tick,
// channel, value), truncated files cut at every byte, damaged bytes, foreign files.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>

#include "io/record/byte_io.hpp"
#include "io/record/mcap/crc32.hpp"
#include "io/record/telemetry_reader.hpp"
#include "tests/io/record/recording_fixture.hpp"
#include "tests/io/record/spec_mcap_reader.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::record {
namespace {

namespace mcap_spec = hil::testing::mcap_spec;
using config::testing::TempDir;

/// Collects what read_telemetry hands on and checks every value against value_of().
class CheckingVisitor final : public TelemetryVisitor {
 public:
  explicit CheckingVisitor(const rt::ChannelTable& table) : table_(table) {}

  void on_topic(std::size_t topic, const TelemetryLayout& layout) override {
    ASSERT_EQ(topic, layouts_.size());
    layouts_.push_back(&layout);
  }
  void on_sample(std::size_t topic, std::uint64_t log_time, const TelemetrySample& s) override {
    const TelemetryLayout& layout = *layouts_.at(topic);
    EXPECT_EQ(log_time, start_ns + static_cast<std::uint64_t>(s.tick) * period_ns);
    for (std::size_t c = 0; c < s.values.size(); ++c) {
      const rt::ChannelId id = table_.resolve(layout.columns()[c].channel);
      ASSERT_EQ(s.values[c], testing::value_of(s.tick, id.index)) << layout.columns()[c].channel;
      ++values;
    }
    ticks[layout.topic()].push_back(s.tick);
  }
  void on_event(std::uint64_t, const TelemetryEvent& e) override { events.push_back(e); }

  std::uint64_t start_ns = 0;
  std::int64_t period_ns = 1;
  std::uint64_t values = 0;
  std::map<std::string, std::vector<std::int64_t>> ticks;
  std::vector<TelemetryEvent> events;

 private:
  const rt::ChannelTable& table_;
  std::vector<const TelemetryLayout*> layouts_;
};

class Recorded : public ::testing::Test {
 protected:
  void record(std::int64_t ticks, std::size_t chunk_bytes,
              Compression compression = Compression::zstd) {
    run_ = {.ticks = ticks, .chunk_bytes = chunk_bytes, .compression = compression};
    testing::record_file(table_, dir_.path() / "t.mcap", run_);
    bytes_ = mcap_spec::load(dir_.path() / "t.mcap");
  }
  TelemetryReadReport read(std::span<const std::uint8_t> bytes, CheckingVisitor& v) {
    v.start_ns = run_.start_ns;
    v.period_ns = run_.period_ns;
    return read_telemetry(bytes, v);
  }

  TempDir dir_;
  testing::RecordedRun run_;
  testing::VehicleTable table_;
  std::vector<std::uint8_t> bytes_;
};

TEST_F(Recorded, RoundTripGivesEveryTickChannelAndValueBack) {
  record(1500, 8 * 1024);
  CheckingVisitor v(table_);
  const TelemetryReadReport r = read(bytes_, v);
  EXPECT_EQ(r.mcap.end, McapEnd::complete) << r.mcap.problem;
  EXPECT_TRUE(r.mcap.data_crc_checked);
  EXPECT_TRUE(r.mcap.summary_crc_checked);
  ASSERT_TRUE(r.mcap.statistics.has_value());
  EXPECT_EQ(r.mcap.statistics->message_count, r.mcap.messages);
  EXPECT_EQ(r.samples, 4U * 1500);
  EXPECT_EQ(r.undecodable, 0U);
  EXPECT_EQ(v.values, 1500U * table_.size());
  std::vector<std::int64_t> expected(1500);
  for (std::int64_t k = 0; k < 1500; ++k) expected[static_cast<std::size_t>(k)] = k;
  for (const char* topic :
       {"/vehicle/wheel/fl", "/vehicle/wheel/fr", "/vehicle/battery", "/rt/loop"}) {
    EXPECT_EQ(v.ticks[topic], expected) << topic;
  }
  ASSERT_EQ(v.events.size(), 2U);
  EXPECT_EQ(v.events[1].kind, "fault");
  EXPECT_EQ(v.events[1].text, "vehicle.battery.voltage stuck at 0");
  EXPECT_EQ(v.events[1].tick, 1499);
}

TEST_F(Recorded, EveryTruncationReadsExactlyTheCompleteRecordsAndSaysSo) {
  record(60, 2 * 1024);
  const std::size_t full_messages = mcap_spec::read(bytes_).messages.size();
  ASSERT_EQ(full_messages, 4U * 60 + 2);
  std::size_t previous = 0;
  for (std::size_t length = 0; length < bytes_.size(); ++length) {
    const std::vector<std::uint8_t> prefix(bytes_.begin(),
                                           bytes_.begin() + static_cast<long>(length));
    CheckingVisitor v(table_);
    const TelemetryReadReport r = read(prefix, v);
    ASSERT_NE(r.mcap.end, McapEnd::complete) << length;
    if (length >= 8) {
      ASSERT_EQ(r.mcap.end, McapEnd::truncated) << length << ": " << r.mcap.problem;
    }
    ASSERT_LE(r.mcap.valid_bytes, length);
    // The independent reader agrees on what a complete record is.
    const auto spec = mcap_spec::read(prefix, /*prefix=*/true);
    ASSERT_EQ(r.mcap.messages, spec.messages.size()) << length;
    ASSERT_GE(r.mcap.messages, previous) << length;  // a longer prefix never reads less
    previous = r.mcap.messages;
  }
  EXPECT_EQ(previous, full_messages);  // the summary is all that the last prefixes miss
}

TEST_F(Recorded, ADamagedChunkIsReportedAndNothingFromItIsHandedOn) {
  record(200, 4 * 1024, Compression::none);
  const auto spec = mcap_spec::read(bytes_);
  // Damage tick 100's first value, inside a chunk's records.
  std::vector<std::uint8_t> damaged = bytes_;
  const double value = testing::value_of(100, 0);
  std::array<std::uint8_t, sizeof value> pattern{};
  std::memcpy(pattern.data(), &value, sizeof value);
  const auto at = std::search(damaged.begin(), damaged.end(), pattern.begin(), pattern.end());
  ASSERT_NE(at, damaged.end());
  at[3] ^= 0x40;
  CheckingVisitor v(table_);
  const TelemetryReadReport r = read(damaged, v);
  EXPECT_EQ(r.mcap.end, McapEnd::corrupt);
  EXPECT_NE(r.mcap.problem.find("CRC mismatch"), std::string::npos) << r.mcap.problem;
  EXPECT_LT(r.mcap.messages, spec.messages.size());
  EXPECT_GT(r.mcap.messages, 0U);
}

TEST_F(Recorded, ADamagedSchemaRecordFailsTheDataSectionCrc) {
  record(10, 4 * 1024);
  std::vector<std::uint8_t> damaged = bytes_;
  const std::string needle = "hil/telemetry/vehicle_wheel_fl.proto";
  const auto at = std::search(damaged.begin(), damaged.end(), needle.begin(), needle.end());
  ASSERT_NE(at, damaged.end());
  *at = 'H';  // still a valid descriptor: only the CRC can tell
  CheckingVisitor v(table_);
  const TelemetryReadReport r = read(damaged, v);
  EXPECT_EQ(r.mcap.end, McapEnd::corrupt);
  EXPECT_NE(r.mcap.problem.find("data section's CRC"), std::string::npos) << r.mcap.problem;
}

// The data section's CRC runs record by record as the reader passes them: its first record
// (the header, right after the magic) and its last (before data end) are in it too
TEST_F(Recorded, TheDataSectionCrcCoversTheHeaderAndTheLastRecord) {
  record(10, 4 * 1024);
  std::vector<std::uint8_t> header = bytes_;
  const std::string library = "hilsim";
  const auto at = std::search(header.begin(), header.end(), library.begin(), library.end());
  ASSERT_NE(at, header.end());
  *at = 'H';
  CheckingVisitor v(table_);
  const TelemetryReadReport r = read(header, v);
  EXPECT_EQ(r.mcap.end, McapEnd::corrupt);
  EXPECT_NE(r.mcap.problem.find("data section's CRC"), std::string::npos) << r.mcap.problem;

  // Data end: opcode 0x0F, length 4, then the CRC; the byte before it ends the last record
  std::vector<std::uint8_t> last = bytes_;
  const std::array<std::uint8_t, 9> data_end{0x0F, 4, 0, 0, 0, 0, 0, 0, 0};
  const auto end = std::search(last.begin(), last.end(), data_end.begin(), data_end.end());
  ASSERT_NE(end, last.end());
  *(end - 1) ^= 0x01U;
  CheckingVisitor w(table_);
  const TelemetryReadReport s = read(last, w);
  EXPECT_EQ(s.mcap.end, McapEnd::corrupt);
  EXPECT_NE(s.mcap.problem.find("data section's CRC"), std::string::npos) << s.mcap.problem;
}

TEST(McapReader, SaysWhenAFileIsNotMcap) {
  McapVisitor ignore;
  const std::string text = "timestamp,value\n0,1\n";
  const McapReadReport r =
      read_mcap(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), ignore);
  EXPECT_EQ(r.end, McapEnd::corrupt);
  EXPECT_NE(r.problem.find("not an MCAP file"), std::string::npos) << r.problem;
}

TEST_F(Recorded, ADamagedCompressedChunkIsReportedNotMisread) {
  for (const Compression c : {Compression::zstd, Compression::lz4}) {
    record(400, 16 * 1024, c);
    const auto spec = mcap_spec::read(bytes_);
    ASSERT_TRUE(spec.violations.empty()) << ::testing::PrintToString(spec.violations);
    CheckingVisitor whole(table_);
    EXPECT_EQ(read(bytes_, whole).mcap.messages, spec.messages.size()) << mcap_name(c);
    // a byte in the middle of the third chunk's compressed records
    std::vector<std::uint8_t> damaged = bytes_;
    std::size_t at = 8, chunks = 0;
    while (at + 9 < damaged.size()) {
      std::uint64_t length = 0;
      std::memcpy(&length, damaged.data() + at + 1, 8);
      if (damaged[at] == 0x06 && ++chunks == 3) break;
      at += 9 + length;
    }
    ASSERT_EQ(chunks, 3U);
    damaged[at + 9 + 200] ^= 0x5A;
    CheckingVisitor v(table_);
    const TelemetryReadReport r = read(damaged, v);
    EXPECT_EQ(r.mcap.end, McapEnd::corrupt) << mcap_name(c);
    EXPECT_NE(r.mcap.problem.find("chunk"), std::string::npos) << r.mcap.problem;
    EXPECT_LT(r.mcap.messages, spec.messages.size());
    EXPECT_GT(r.mcap.messages, 0U);
  }
}

TEST(McapReader, RejectsUnknownCompressionsByName) {
  std::vector<std::uint8_t> file(kMcapMagic.begin(), kMcapMagic.end());
  ByteWriter w(file);
  const std::size_t header = w.begin_record(Opcode::header);
  w.string("");
  w.string("other");
  w.end_record(header);
  const std::size_t chunk = w.begin_record(Opcode::chunk);
  for (int i = 0; i < 3; ++i) w.put(std::uint64_t{0});  // times, uncompressed size
  w.put(std::uint32_t{0});
  w.string("brotli");
  w.put(std::uint64_t{0});
  w.end_record(chunk);
  McapVisitor ignore;
  const McapReadReport r = read_mcap(file, ignore);
  EXPECT_EQ(r.end, McapEnd::corrupt);
  EXPECT_NE(r.problem.find("'brotli'"), std::string::npos) << r.problem;
  EXPECT_EQ(r.library, "other");
}

TEST(McapReader, AMessageOnAnUnknownChannelIsCorruptNotMisread) {
  std::vector<std::uint8_t> file(kMcapMagic.begin(), kMcapMagic.end());
  ByteWriter w(file);
  w.end_record(w.begin_record(Opcode::header));  // an empty body: fields missing
  McapVisitor ignore;
  EXPECT_EQ(read_mcap(file, ignore).end, McapEnd::corrupt);

  file.resize(kMcapMagic.size());
  const std::size_t header = w.begin_record(Opcode::header);
  w.string("");
  w.string("");
  w.end_record(header);
  const std::size_t message = w.begin_record(Opcode::message);
  w.put(std::uint16_t{7});
  w.put(std::uint32_t{0});
  w.put(std::uint64_t{0});
  w.put(std::uint64_t{0});
  w.end_record(message);
  const McapReadReport r = read_mcap(file, ignore);
  EXPECT_EQ(r.end, McapEnd::corrupt);
  EXPECT_NE(r.problem.find("channel 7"), std::string::npos) << r.problem;
  EXPECT_EQ(r.messages, 0U);
}

}  // namespace
}  // namespace hil::io::record
