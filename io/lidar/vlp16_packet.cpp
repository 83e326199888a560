#include "io/lidar/vlp16_packet.hpp"

namespace hil::io::lidar {

namespace {

void put16(std::uint8_t* p, std::uint16_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v & 0xFFU);
  p[1] = static_cast<std::uint8_t>(v >> 8U);
}

}  // namespace

void encode_vlp16(const PacketFields& fields, Packet& out) noexcept {
  std::uint8_t* p = out.data();
  for (std::size_t b = 0; b < kBlocks; ++b) {
    put16(p, kBlockFlag);
    put16(p + 2, fields.azimuth[b]);
    p += 4;
    for (std::size_t r = 0; r < kReturnsPerBlock; ++r) {
      const std::size_t j = b * kReturnsPerBlock + r;
      put16(p, fields.distance[j]);
      p[2] = fields.reflectivity[j];
      p += 3;
    }
  }
  const std::uint32_t t = fields.timestamp_us;
  put16(p, static_cast<std::uint16_t>(t & 0xFFFFU));
  put16(p + 2, static_cast<std::uint16_t>(t >> 16U));
  p[4] = fields.return_mode;
  p[5] = fields.product;
}

std::uint32_t packet_digest(const Packet& packet) noexcept {
  std::uint32_t h = 0x811C9DC5U;
  for (const std::uint8_t byte : packet) {
    h ^= byte;
    h *= 0x01000193U;
  }
  return h;
}

}  // namespace hil::io::lidar
