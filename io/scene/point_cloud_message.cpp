#include "io/scene/point_cloud_message.hpp"

#include <bit>
#include <cstring>

#include "io/scene/foxglove/PointCloud.pb.h"
#include "io/scene/foxglove_schemas.hpp"

namespace hil::io::scene {

std::vector<std::uint8_t> point_cloud_message(std::uint64_t time_ns, std::string_view frame_id,
                                              std::span<const float> xyzi) {
  static_assert(std::endian::native == std::endian::little, "float32 fields are little-endian");
  foxglove::PointCloud m;
  m.mutable_timestamp()->set_seconds(static_cast<std::int64_t>(time_ns / 1'000'000'000));
  m.mutable_timestamp()->set_nanos(static_cast<std::int32_t>(time_ns % 1'000'000'000));
  m.set_frame_id(std::string(frame_id));
  m.mutable_pose()->mutable_orientation()->set_w(1.0);
  (void)m.mutable_pose()->mutable_position();
  m.set_point_stride(16);
  std::uint32_t offset = 0;
  for (const char* name : {"x", "y", "z", "intensity"}) {
    foxglove::PackedElementField* f = m.add_fields();
    f->set_name(name);
    f->set_offset(offset);
    f->set_type(foxglove::PackedElementField::FLOAT32);
    offset += 4;
  }
  std::string data(xyzi.size() * sizeof(float), '\0');
  std::memcpy(data.data(), xyzi.data(), data.size());
  m.set_data(std::move(data));
  std::vector<std::uint8_t> out(m.ByteSizeLong());
  m.SerializeToArray(out.data(), static_cast<int>(out.size()));
  return out;
}

std::span<const std::uint8_t> point_cloud_schema() {
  static const std::vector<std::uint8_t> schema = [] {
    (void)foxglove::PointCloud::descriptor();  // registered: linked in with this file
    return file_descriptor_set(kPointCloudSchema);
  }();
  return schema;
}

}  // namespace hil::io::scene
