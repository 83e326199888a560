// The scene topics' schemas (io/scene/foxglove_schemas.hpp): each FileDescriptorSet parses,
// builds on its own (every import inside it, before its user), names the topic's message with
// Foxglove's field numbers, and decodes what the scene writes.

#include <gtest/gtest.h>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>

#include "io/scene/foxglove_schemas.hpp"
#include "io/scene/scene_messages.hpp"
#include "tests/io/scene/scene_fixture.hpp"

namespace hil::io::scene {
namespace {

namespace pb = google::protobuf;

/// A pool built from the set alone, in its order (a file after its imports, or it fails).
struct Schema {
  pb::DescriptorPool pool;
  const pb::Descriptor* message = nullptr;
};

void build(std::span<const std::uint8_t> bytes, std::string_view name, Schema& out) {
  pb::FileDescriptorSet set;
  ASSERT_TRUE(set.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())));
  for (const pb::FileDescriptorProto& f : set.file()) {
    ASSERT_NE(out.pool.BuildFile(f), nullptr) << f.name() << " (its imports come first)";
  }
  out.message = out.pool.FindMessageTypeByName(std::string(name));
  ASSERT_NE(out.message, nullptr) << name;
}

int number(const pb::Descriptor& m, const std::string& field) {
  const pb::FieldDescriptor* f = m.FindFieldByName(field);
  return f != nullptr ? f->number() : -1;
}

TEST(FoxgloveSchemas, EachTopicsSchemaParsesAndNamesItsMessage) {
  for (const SceneTopicInfo& t : kSceneTopics) {
    Schema s;
    build(scene_schema(t.id), t.schema_name, s);
    EXPECT_EQ(s.message->full_name(), t.schema_name) << t.topic;
  }
}

TEST(FoxgloveSchemas, FieldNumbersAreFoxglovesPublishedOnes) {
  // @foxglove/schemas 2.1.0's protobuf definitions
  Schema tf;
  build(scene_schema(SceneTopic::tf), "foxglove.FrameTransform", tf);
  EXPECT_EQ(number(*tf.message, "timestamp"), 1);
  EXPECT_EQ(number(*tf.message, "parent_frame_id"), 2);
  EXPECT_EQ(number(*tf.message, "child_frame_id"), 3);
  EXPECT_EQ(number(*tf.message, "translation"), 4);
  EXPECT_EQ(number(*tf.message, "rotation"), 5);
  EXPECT_EQ(number(*tf.message->FindFieldByName("rotation")->message_type(), "w"), 4);
  Schema update;
  build(scene_schema(SceneTopic::world), "foxglove.SceneUpdate", update);
  EXPECT_EQ(number(*update.message, "deletions"), 1);
  EXPECT_EQ(number(*update.message, "entities"), 2);
  const pb::Descriptor& entity = *update.pool.FindMessageTypeByName("foxglove.SceneEntity");
  const std::vector<std::pair<std::string, int>> fields{
      {"timestamp", 1}, {"frame_id", 2},   {"id", 3},     {"lifetime", 4}, {"frame_locked", 5},
      {"metadata", 6},  {"arrows", 7},     {"cubes", 8},  {"spheres", 9},  {"cylinders", 10},
      {"lines", 11},    {"triangles", 12}, {"texts", 13}, {"models", 14}};
  for (const auto& [name, n] : fields) EXPECT_EQ(number(entity, name), n) << name;
  const pb::Descriptor& triangles =
      *update.pool.FindMessageTypeByName("foxglove.TriangleListPrimitive");
  EXPECT_EQ(number(triangles, "points"), 2);
  EXPECT_EQ(number(triangles, "colors"), 4);
  EXPECT_EQ(number(triangles, "indices"), 5);
  EXPECT_EQ(triangles.FindFieldByName("indices")->type(), pb::FieldDescriptor::TYPE_FIXED32);
  const pb::Descriptor& cylinder = *update.pool.FindMessageTypeByName("foxglove.CylinderPrimitive");
  EXPECT_EQ(number(cylinder, "top_scale"), 4);
  EXPECT_EQ(number(cylinder, "color"), 5);
  const pb::Descriptor& arrow = *update.pool.FindMessageTypeByName("foxglove.ArrowPrimitive");
  EXPECT_EQ(number(arrow, "head_diameter"), 5);
  EXPECT_EQ(number(arrow, "color"), 6);
  const pb::Descriptor& line = *update.pool.FindMessageTypeByName("foxglove.LinePrimitive");
  EXPECT_EQ(number(line, "points"), 5);
  EXPECT_EQ(number(line, "indices"), 8);
  Schema poses;
  build(scene_schema(SceneTopic::trail), "foxglove.PosesInFrame", poses);
  EXPECT_EQ(number(*poses.message, "frame_id"), 2);
  EXPECT_EQ(number(*poses.message, "poses"), 3);
}

TEST(FoxgloveSchemas, AMessageTheSceneWritesDecodesWithTheSchemaAlone) {
  const Scene scene = testing::two_axle_scene();
  testing::SceneTable table(scene);
  table.put("vehicle.body.position.x", 3.5);
  SceneMessages messages(scene, table);
  std::vector<std::vector<std::uint8_t>> tf;
  messages.transforms(table.values(), 1'700'000'000'123'456'789,
                      [&](auto m) { tf.emplace_back(m.begin(), m.end()); });
  Schema s;
  build(scene_schema(SceneTopic::tf), "foxglove.FrameTransform", s);
  pb::DynamicMessageFactory factory(&s.pool);
  std::unique_ptr<pb::Message> m(factory.GetPrototype(s.message)->New());
  ASSERT_TRUE(m->ParseFromArray(tf.at(0).data(), static_cast<int>(tf[0].size())));
  const pb::Reflection& r = *m->GetReflection();
  EXPECT_EQ(r.GetString(*m, s.message->FindFieldByName("child_frame_id")), "body");
  const pb::Message& translation = r.GetMessage(*m, s.message->FindFieldByName("translation"));
  EXPECT_EQ(translation.GetReflection()->GetDouble(
                translation, translation.GetDescriptor()->FindFieldByName("x")),
            3.5);
  const pb::Message& stamp = r.GetMessage(*m, s.message->FindFieldByName("timestamp"));
  EXPECT_EQ(
      stamp.GetReflection()->GetInt64(stamp, stamp.GetDescriptor()->FindFieldByName("seconds")),
      1'700'000'000);
  EXPECT_EQ(stamp.GetReflection()->GetInt32(stamp, stamp.GetDescriptor()->FindFieldByName("nanos")),
            123'456'789);
}

TEST(FoxgloveSchemas, AnUnknownMessageIsAnError) {
  EXPECT_THROW((void)file_descriptor_set("foxglove.NoSuchThing"), std::invalid_argument);
}

}  // namespace
}  // namespace hil::io::scene
