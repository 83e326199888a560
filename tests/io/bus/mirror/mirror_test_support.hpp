#pragma once
// Shared by the mirror tests: a small bus schema, fixed keys, and packets built by hand.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "io/bus/bus_schema.hpp"
#include "io/bus/mirror/mirror_key.hpp"
#include "io/bus/mirror/wire.hpp"

namespace hil::io::bus::mirror::test {

/// "state" (hilsim's output, 4 values) and "battery" (an input written over UDP, 3 values).
inline BusSchema two_region_schema(std::size_t state_values = 4) {
  BusSchema s{.name = "mirror_test"};
  RegionSchema state{.name = "state", .direction = RegionDirection::output, .writer = "hilsim"};
  for (std::size_t i = 0; i < state_values; ++i) {
    state.channels.push_back({"vehicle.state." + std::to_string(i), "-"});
  }
  s.regions.push_back(state);
  s.regions.push_back(
      {.name = "battery",
       .direction = RegionDirection::input,
       .writer = "battery@udp",
       .channels = {{"battery.voltage", "V"}, {"battery.current", "A"}, {"battery.soc", "-"}},
       .timeout_ticks = 50});
  return s;
}

inline MirrorKey fixed_key(std::uint8_t first = 0x40) {
  std::array<std::uint8_t, MirrorKey::kBytes> raw{};
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<std::uint8_t>(first + 3 * i);
  return MirrorKey::from_bytes(raw);
}

/// A DATA packet for `region` of `schema`, values[i] = region_seq + i.
struct PacketSpec {
  std::uint32_t region = 0;
  std::uint64_t session_id = 0xABCD;
  std::uint64_t session_start = 1000;
  std::uint64_t region_seq = 1;
  std::int64_t tick = -1;  ///< -1: region_seq
  std::uint8_t key_id = 1;
  std::uint8_t flags = 0;
};

inline std::vector<std::uint8_t> data_packet(const BusSchema& schema, const PacketSpec& spec,
                                             const MirrorKey& key) {
  const std::size_t n = schema.regions.at(spec.region).channels.size();
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = static_cast<double>(spec.region_seq) + static_cast<double>(i);
  }
  std::vector<std::uint8_t> out(data_packet_bytes(n));
  const PacketHead head{.key_id = spec.key_id,
                        .flags = spec.flags,
                        .bus_schema_hash = schema.hash(),
                        .session_id = spec.session_id,
                        .session_start_unix_ns = spec.session_start,
                        .packet_seq = spec.region_seq};
  const DataFields fields{
      .region_id = spec.region,
      .n = static_cast<std::uint32_t>(n),
      .region_seq = spec.region_seq,
      .tick = spec.tick >= 0 ? spec.tick : static_cast<std::int64_t>(spec.region_seq),
      .publish_age_ns = 10,
      .send_unix_ns = 0,
      .region_schema_hash = schema.region_hash(spec.region)};
  out.resize(encode_data(out, head, fields, values.data(), key));
  return out;
}

}  // namespace hil::io::bus::mirror::test
