// Channel groups → topics and Protobuf messages, and the encode/decode pair.

#include <gtest/gtest.h>

#include "io/record/telemetry_layout.hpp"
#include "io/record/telemetry_schema.hpp"
#include "tests/io/record/recording_fixture.hpp"

namespace hil::io::record {
namespace {

struct NamedTable : rt::ChannelTable {
  NamedTable(std::initializer_list<const char*> names) {
    for (const char* n : names) add({.name = n, .unit = "-"});
    freeze();
  }
};

TEST(TelemetrySchema, GroupsChannelsByNameWithoutTheLastSegment) {
  const testing::VehicleTable table;
  const TelemetrySchema schema(table);
  ASSERT_EQ(schema.groups().size(), 4U);
  const TelemetryGroup& fl = schema.groups()[0];
  EXPECT_EQ(fl.group, "vehicle.wheel.fl");
  EXPECT_EQ(fl.topic, "/vehicle/wheel/fl");
  EXPECT_EQ(fl.message_name, "hil.telemetry.vehicle_wheel_fl");
  ASSERT_EQ(fl.fields.size(), 3U);  // speed, slip, speed_ref (added later, same group)
  EXPECT_EQ(fl.fields[0].name, "speed");
  EXPECT_EQ(fl.fields[0].number, 3U);
  EXPECT_EQ(fl.fields[2].name, "speed_ref");
  EXPECT_EQ(fl.fields[2].channel, table.resolve("vehicle.wheel.fl.speed_ref"));
  EXPECT_EQ(schema.groups()[3].fields[0].name, "tick_channel");  // "tick" is the tick's
}

TEST(TelemetrySchema, CollidingMessageNamesAndTopLevelChannelsStayDistinct) {
  const NamedTable table({"a.b_c.x", "a.b.c.x", "time", "top.y", "top.y_1", "top.y1"});
  const TelemetrySchema schema(table);
  ASSERT_EQ(schema.groups().size(), 4U);
  EXPECT_EQ(schema.groups()[0].message_name, "hil.telemetry.a_b_c");
  EXPECT_EQ(schema.groups()[1].message_name, "hil.telemetry.a_b_c_2");
  EXPECT_EQ(schema.groups()[1].topic, "/a/b/c");
  EXPECT_EQ(schema.groups()[2].topic, "/_top");  // single-segment channels
  EXPECT_EQ(group_of_topic("/_top"), "");
  EXPECT_EQ(group_of_topic("/a/b/c"), "a.b.c");
}

TEST(TelemetrySchema, AnEmptyTableIsRefused) {
  const NamedTable table({});
  EXPECT_THROW(TelemetrySchema{table}, std::invalid_argument);
}

TEST(TelemetrySchema, EncodedMessagesDecodeThroughTheLayoutBuiltFromTheSchema) {
  const testing::VehicleTable table;
  const TelemetrySchema schema(table);
  std::vector<double> values(table.size());
  testing::fill_values(123456789, values);
  values[0] = -0.0;  // the sign of zero survives
  for (const TelemetryGroup& g : schema.groups()) {
    const McapSchema s{
        .id = 1, .name = g.message_name, .encoding = "protobuf", .data = g.file_descriptor_set};
    const McapChannel c{.id = 0,
                        .schema_id = 1,
                        .topic = g.topic,
                        .message_encoding = "protobuf",
                        .metadata = g.metadata};
    const auto [layout, why_not] = TelemetryLayout::from(s, c);
    ASSERT_TRUE(layout.has_value()) << why_not;
    std::vector<std::uint8_t> message;
    schema.encode(g, 123456789, 30864.19725, values, message);
    TelemetrySample sample;
    ASSERT_TRUE(layout->decode(message, sample));
    EXPECT_EQ(sample.tick, 123456789);
    EXPECT_EQ(sample.sim_time_s, 30864.19725);
    ASSERT_EQ(sample.values.size(), g.fields.size());
    for (std::size_t i = 0; i < g.fields.size(); ++i) {
      EXPECT_EQ(layout->columns()[i].channel, table.spec(g.fields[i].channel).name);
      EXPECT_EQ(layout->columns()[i].unit, table.spec(g.fields[i].channel).unit);
      EXPECT_EQ(std::bit_cast<std::uint64_t>(sample.values[i]),
                std::bit_cast<std::uint64_t>(values[g.fields[i].channel.index]));
    }
    message.pop_back();  // a torn message is refused, not misread
    EXPECT_FALSE(layout->decode(message, sample));
  }
}

TEST(TelemetrySchema, EventsRoundTrip) {
  const std::vector<std::uint8_t> set = event_file_descriptor_set();
  const McapSchema s{
      .id = 1, .name = std::string(kEventMessageName), .encoding = "protobuf", .data = set};
  const McapChannel c{.id = 0, .schema_id = 1, .topic = "/events", .message_encoding = "protobuf"};
  const auto [layout, why_not] = TelemetryLayout::from(s, c);
  ASSERT_TRUE(layout.has_value()) << why_not;
  EXPECT_EQ(layout->kind(), TelemetryLayout::Kind::events);
  std::vector<std::uint8_t> message;
  encode_event(42, 0.042, "fault", "brake line open", message);
  TelemetryEvent e;
  ASSERT_TRUE(layout->decode(message, e));
  EXPECT_EQ(e.tick, 42);
  EXPECT_EQ(e.kind, "fault");
  EXPECT_EQ(e.text, "brake line open");
}

TEST(TelemetryLayout, ExplainsWhyAChannelIsNotTelemetry) {
  const McapSchema json{.id = 1, .name = "x", .encoding = "jsonschema"};
  const McapChannel c{.id = 0, .schema_id = 1, .topic = "/x", .message_encoding = "json"};
  EXPECT_EQ(TelemetryLayout::from(json, c).second, "not Protobuf-encoded");
  const std::vector<std::uint8_t> garbage{0xFF, 0xFF, 0xFF};
  const McapSchema bad{.id = 1, .name = "x", .encoding = "protobuf", .data = garbage};
  const McapChannel pc{.id = 0, .schema_id = 1, .topic = "/x", .message_encoding = "protobuf"};
  EXPECT_NE(TelemetryLayout::from(bad, pc).second.find("not a FileDescriptorSet"),
            std::string::npos);
}

}  // namespace
}  // namespace hil::io::record
