#include "io/scene/foxglove_schemas.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include <set>
#include <stdexcept>
#include <string>

#include "io/scene/foxglove/FrameTransform.pb.h"
#include "io/scene/foxglove/PosesInFrame.pb.h"
#include "io/scene/foxglove/SceneUpdate.pb.h"

namespace hil::io::scene {

namespace {

namespace pb = google::protobuf;

/// `file` after its imports, each file once.
void add_file(const pb::FileDescriptor& file, std::set<std::string>& seen,
              pb::FileDescriptorSet& out) {
  if (!seen.insert(file.name()).second) return;
  for (int i = 0; i < file.dependency_count(); ++i) add_file(*file.dependency(i), seen, out);
  file.CopyTo(out.add_file());
}

std::vector<std::uint8_t> set_of(const pb::Descriptor& message) {
  pb::FileDescriptorSet set;
  std::set<std::string> seen;
  add_file(*message.file(), seen, set);
  std::vector<std::uint8_t> out(set.ByteSizeLong());
  set.SerializeToArray(out.data(), static_cast<int>(out.size()));
  return out;
}

}  // namespace

std::vector<std::uint8_t> file_descriptor_set(std::string_view full_name) {
  // the scene's messages are linked in whenever this file is: their descriptors are registered
  static const pb::Descriptor* const linked[] = {foxglove::FrameTransform::descriptor(),
                                                 foxglove::SceneUpdate::descriptor(),
                                                 foxglove::PosesInFrame::descriptor()};
  (void)linked;
  const pb::Descriptor* message =
      pb::DescriptorPool::generated_pool()->FindMessageTypeByName(std::string(full_name));
  if (message == nullptr) {
    throw std::invalid_argument("no protobuf message " + std::string(full_name));
  }
  return set_of(*message);
}

std::span<const std::uint8_t> scene_schema(SceneTopic topic) {
  static const std::array<std::vector<std::uint8_t>, kSceneTopics.size()> schemas = [] {
    std::array<std::vector<std::uint8_t>, kSceneTopics.size()> out;
    for (std::size_t i = 0; i < kSceneTopics.size(); ++i) {
      out[i] = file_descriptor_set(kSceneTopics[i].schema_name);
    }
    return out;
  }();
  return schemas[static_cast<std::size_t>(topic)];
}

}  // namespace hil::io::scene
