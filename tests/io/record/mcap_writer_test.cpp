// telemetry.mcap as a third-party reader sees it: checked by the independent reader written
// from the MCAP spec (spec_mcap_reader.*) and decoded with libprotobuf's own reflection from
// the embedded schemas, not with hilsim's decoder.

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <gtest/gtest.h>

#include <set>

#include "io/record/telemetry_recorder.hpp"
#include "tests/io/record/recording_fixture.hpp"
#include "tests/io/record/spec_mcap_reader.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::record {
namespace {

namespace pb = google::protobuf;
namespace mcap_spec = hil::testing::mcap_spec;
using config::testing::TempDir;
using testing::value_of;

constexpr std::int64_t kPeriodNs = 1'000'000;  // 1 kHz: every tick recorded
constexpr std::uint64_t kStartNs = 1'700'000'000'000'000'000;
constexpr std::int64_t kTicks = 2'000;

class RecordedFile : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::record_file(table_, dir_.path() / "telemetry.mcap",
                         {.ticks = kTicks, .period_ns = kPeriodNs, .start_ns = kStartNs});
    file_ = mcap_spec::read(mcap_spec::load(dir_.path() / "telemetry.mcap"));
  }

  /// Channel id of `topic` in the file.
  std::uint16_t channel(const std::string& topic) const {
    for (const auto& [id, c] : file_.channels) {
      if (c.topic == topic) return id;
    }
    ADD_FAILURE() << "no channel " << topic;
    return 0;
  }

  testing::VehicleTable table_;
  TempDir dir_;
  mcap_spec::File file_;
};

TEST_F(RecordedFile, FollowsTheSpecFramingCrcsIndexesAndSummaryOffsets) {
  EXPECT_TRUE(file_.violations.empty()) << ::testing::PrintToString(file_.violations);
  EXPECT_TRUE(file_.complete);
  EXPECT_EQ(file_.library, "hilsim");
  EXPECT_GT(file_.chunks, 3U);
  EXPECT_EQ(file_.summary_offsets, 5U);  // schema, channel, statistics, metadata index, chunk index
  EXPECT_EQ(file_.metadata.at("hilsim.run").at("rig"), "bench");
  EXPECT_EQ(file_.metadata.at("hilsim.telemetry").at("tick_period_ns"), "1000000");
}

TEST_F(RecordedFile, HasOneTopicPerChannelGroupPlusEvents) {
  std::set<std::string> topics;
  for (const auto& [id, c] : file_.channels) {
    topics.insert(c.topic);
    EXPECT_EQ(c.message_encoding, "protobuf");
  }
  EXPECT_EQ(topics, (std::set<std::string>{"/vehicle/wheel/fl", "/vehicle/wheel/fr",
                                           "/vehicle/battery", "/rt/loop", "/events"}));
}

TEST_F(RecordedFile, SchemasAreFileDescriptorSetsDefiningTheGroupMessages) {
  ASSERT_EQ(file_.schemas.size(), 5U);
  for (const auto& [id, s] : file_.schemas) {
    EXPECT_EQ(s.encoding, "protobuf");
    pb::FileDescriptorSet set;
    ASSERT_TRUE(set.ParseFromArray(s.data.data(), static_cast<int>(s.data.size()))) << s.name;
    pb::DescriptorPool pool;
    for (const auto& f : set.file()) ASSERT_NE(pool.BuildFile(f), nullptr) << s.name;
    EXPECT_NE(pool.FindMessageTypeByName(s.name), nullptr) << s.name;
  }
  const auto& fl = file_.schemas.at(file_.channels.at(channel("/vehicle/wheel/fl")).schema_id);
  EXPECT_EQ(fl.name, "hil.telemetry.vehicle_wheel_fl");
}

TEST_F(RecordedFile, MessageCountsMatchTheStatisticsAndWhatWasRecorded) {
  ASSERT_TRUE(file_.statistics.has_value());
  std::map<std::uint16_t, std::uint64_t> counted;
  for (const auto& m : file_.messages) ++counted[m.channel_id];
  EXPECT_EQ(file_.statistics->channel_message_counts, counted);
  for (const char* topic :
       {"/vehicle/wheel/fl", "/vehicle/wheel/fr", "/vehicle/battery", "/rt/loop"}) {
    EXPECT_EQ(counted[channel(topic)], static_cast<std::uint64_t>(kTicks)) << topic;
  }
  EXPECT_EQ(counted[channel("/events")], 2U);
  EXPECT_EQ(file_.statistics->message_count, 4 * kTicks + 2);
  EXPECT_EQ(file_.statistics->start_time, kStartNs);
  EXPECT_EQ(file_.statistics->end_time, kStartNs + (kTicks - 1) * kPeriodNs);
}

TEST_F(RecordedFile, ProtobufReflectionDecodesEveryValueAtItsTick) {
  pb::DescriptorPool pool;
  std::map<std::uint16_t, const pb::Descriptor*> type_of;
  for (const auto& [id, c] : file_.channels) {
    const auto& s = file_.schemas.at(c.schema_id);
    pb::FileDescriptorSet set;
    ASSERT_TRUE(set.ParseFromArray(s.data.data(), static_cast<int>(s.data.size())));
    ASSERT_NE(pool.BuildFile(set.file(0)), nullptr);
    type_of[id] = pool.FindMessageTypeByName(s.name);
  }
  pb::DynamicMessageFactory factory(&pool);
  std::uint64_t values_checked = 0;
  for (const auto& m : file_.messages) {
    const pb::Descriptor* type = type_of.at(m.channel_id);
    std::unique_ptr<pb::Message> msg(factory.GetPrototype(type)->New());
    ASSERT_TRUE(msg->ParseFromArray(m.data.data(), static_cast<int>(m.data.size())));
    const pb::Reflection* r = msg->GetReflection();
    const std::int64_t tick = r->GetInt64(*msg, type->FindFieldByName("tick"));
    EXPECT_EQ(m.log_time, kStartNs + static_cast<std::uint64_t>(tick) * kPeriodNs);
    EXPECT_EQ(m.publish_time, m.log_time);
    EXPECT_DOUBLE_EQ(r->GetDouble(*msg, type->FindFieldByName("sim_time")), tick * 1e-3);
    if (type->name() == "Event") continue;
    const auto& metadata = file_.channels.at(m.channel_id).metadata;
    for (int i = 0; i < type->field_count(); ++i) {
      const pb::FieldDescriptor* f = type->field(i);
      if (f->number() <= 2) continue;
      const rt::ChannelId id = table_.resolve(metadata.at(f->name() + ".channel"));
      ASSERT_EQ(r->GetDouble(*msg, f), value_of(tick, id.index)) << f->full_name();
      ++values_checked;
    }
  }
  EXPECT_EQ(values_checked, static_cast<std::uint64_t>(kTicks) * table_.size());
}

TEST_F(RecordedFile, UnitsDirectionsAndDescriptionsAreInTheChannelMetadataAndSchemaComments) {
  const auto& c = file_.channels.at(channel("/vehicle/wheel/fl"));
  EXPECT_EQ(c.metadata.at("speed.channel"), "vehicle.wheel.fl.speed");
  EXPECT_EQ(c.metadata.at("speed.unit"), "rad/s");
  EXPECT_EQ(c.metadata.at("speed.description"), "wheel spin rate");
  EXPECT_EQ(c.metadata.at("speed_ref.direction"), "input");
  const auto& loop = file_.channels.at(channel("/rt/loop"));
  EXPECT_EQ(loop.metadata.at("tick_channel.channel"), "rt.loop.tick");  // "tick" is taken

  const auto& s = file_.schemas.at(c.schema_id);
  pb::FileDescriptorSet set;
  ASSERT_TRUE(set.ParseFromArray(s.data.data(), static_cast<int>(s.data.size())));
  std::string comments;
  for (const auto& l : set.file(0).source_code_info().location()) comments += l.leading_comments();
  EXPECT_NE(comments.find("vehicle.wheel.fl.speed [rad/s] output: wheel spin rate"),
            std::string::npos)
      << comments;
}

TEST(McapWriter, AFileWithoutSamplesIsStillValid) {
  TempDir dir;
  const testing::VehicleTable table;
  TelemetryRecorder rec(table, dir.path() / "t.mcap", {.tick_period_ns = kPeriodNs});
  rec.stop();
  const auto file = mcap_spec::read(mcap_spec::load(dir.path() / "t.mcap"));
  EXPECT_TRUE(file.violations.empty()) << ::testing::PrintToString(file.violations);
  EXPECT_TRUE(file.messages.empty());
  EXPECT_EQ(file.chunks, 0U);
}

}  // namespace
}  // namespace hil::io::record
