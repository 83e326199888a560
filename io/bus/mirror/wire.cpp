#include "io/bus/mirror/wire.hpp"

#include <bit>
#include <cstring>

namespace hil::io::bus::mirror {

namespace {

void put_u32(std::uint8_t* p, std::uint32_t v) noexcept {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
void put_u64(std::uint8_t* p, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint32_t get_u32(const std::uint8_t* p) noexcept {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::uint64_t get_u64(const std::uint8_t* p) noexcept {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void put_head(std::uint8_t* p, const PacketHead& h) noexcept {
  std::memcpy(p, kWireMagic.data(), kWireMagic.size());
  p[4] = static_cast<std::uint8_t>(h.tag);
  p[5] = static_cast<std::uint8_t>(h.type);
  p[6] = h.key_id;
  p[7] = h.flags;
  put_u64(p + 8, h.bus_schema_hash);
  put_u64(p + 16, h.session_id);
  put_u64(p + 24, h.session_start_unix_ns);
  put_u64(p + 32, h.packet_seq);
}

void sign(std::span<std::uint8_t> packet, std::size_t signed_size, const MirrorKey& key) noexcept {
  compute_tag(key.bytes(), packet.first(signed_size),
              packet.subspan(signed_size).first<kTagBytes>(), static_cast<TagKind>(packet[4]));
}

}  // namespace

std::string_view to_string(WireError e) noexcept {
  switch (e) {
    case WireError::ok:
      return "ok";
    case WireError::too_short:
      return "too short";
    case WireError::bad_magic:
      return "bad magic";
    case WireError::bad_version:
      return "unsupported version";
    case WireError::bad_type:
      return "unknown packet type";
    case WireError::too_many_values:
      return "too many values";
    case WireError::truncated:
      return "truncated";
    case WireError::trailing_bytes:
      return "trailing bytes";
    case WireError::unknown_key:
      return "unknown key_id";
    case WireError::auth_failed:
      return "authentication failed";
  }
  return "?";
}

double Packet::value(std::size_t i) const noexcept {
  return std::bit_cast<double>(get_u64(value_bytes.data() + 8 * i));
}

void Packet::copy_values(double* out) const noexcept {
  for (std::size_t i = 0; i < data.n; ++i) out[i] = value(i);
}

std::size_t encode_data(std::span<std::uint8_t> out, PacketHead head, const DataFields& f,
                        const double* values, const MirrorKey& key) noexcept {
  if (f.n == 0 || f.n > kMaxRegionValues) return 0;
  const std::size_t size = data_packet_bytes(f.n);
  if (out.size() < size) return 0;
  head.type = PacketType::data;
  std::uint8_t* p = out.data();
  put_head(p, head);
  put_u32(p + 40, f.region_id);
  put_u32(p + 44, f.n);
  put_u64(p + 48, f.region_seq);
  put_u64(p + 56, static_cast<std::uint64_t>(f.tick));
  put_u64(p + 64, f.publish_age_ns);
  put_u64(p + 72, f.send_unix_ns);
  put_u64(p + 80, f.region_schema_hash);
  for (std::size_t i = 0; i < f.n; ++i) {
    put_u64(p + kDataFixedBytes + 8 * i, std::bit_cast<std::uint64_t>(values[i]));
  }
  sign(out.first(size), size - kTagBytes, key);
  return size;
}

std::size_t encode_ping(std::span<std::uint8_t> out, const PacketHead& head, const PingFields& f,
                        const MirrorKey& key) noexcept {
  if (out.size() < kPingBytes || head.type == PacketType::data) return 0;
  std::uint8_t* p = out.data();
  put_head(p, head);
  put_u64(p + 40, f.ping_seq);
  put_u64(p + 48, f.ping_mono_ns);
  put_u64(p + 56, f.ping_session_id);
  put_u64(p + 64, f.send_unix_ns);
  sign(out.first(kPingBytes), kPingSignedBytes, key);
  return kPingBytes;
}

void reflag(std::span<std::uint8_t> packet, std::uint8_t flags, const MirrorKey& key) noexcept {
  if (packet.size() < kMinPacketBytes) return;
  packet[7] = flags;
  sign(packet, packet.size() - kTagBytes, key);
}

WireError parse(std::span<const std::uint8_t> bytes, Packet& out) noexcept {
  if (bytes.size() < kMinPacketBytes) return WireError::too_short;
  const std::uint8_t* p = bytes.data();
  if (std::memcmp(p, kWireMagic.data(), kWireMagic.size()) != 0) return WireError::bad_magic;
  if (p[4] < kWireVersion || p[4] > kWireVersionMax) return WireError::bad_version;
  if (p[5] < 1 || p[5] > 3) return WireError::bad_type;
  Packet r;
  r.head.tag = static_cast<TagKind>(p[4]);
  r.head.type = static_cast<PacketType>(p[5]);
  r.head.key_id = p[6];
  r.head.flags = p[7];
  r.head.bus_schema_hash = get_u64(p + 8);
  r.head.session_id = get_u64(p + 16);
  r.head.session_start_unix_ns = get_u64(p + 24);
  r.head.packet_seq = get_u64(p + 32);
  std::size_t expected = kPingBytes;
  if (r.head.type == PacketType::data) {
    // kMinPacketBytes (88) covers every DATA field before the values
    r.data.region_id = get_u32(p + 40);
    r.data.n = get_u32(p + 44);
    if (r.data.n > kMaxRegionValues) return WireError::too_many_values;
    expected = data_packet_bytes(r.data.n);
    if (bytes.size() < expected) return WireError::truncated;
    if (bytes.size() > expected) return WireError::trailing_bytes;
    r.data.region_seq = get_u64(p + 48);
    r.data.tick = static_cast<std::int64_t>(get_u64(p + 56));
    r.data.publish_age_ns = get_u64(p + 64);
    r.data.send_unix_ns = get_u64(p + 72);
    r.data.region_schema_hash = get_u64(p + 80);
    r.value_bytes = bytes.subspan(kDataFixedBytes, 8 * std::size_t{r.data.n});
  } else {
    if (bytes.size() > expected) return WireError::trailing_bytes;
    r.ping.ping_seq = get_u64(p + 40);
    r.ping.ping_mono_ns = get_u64(p + 48);
    r.ping.ping_session_id = get_u64(p + 56);
    r.ping.send_unix_ns = get_u64(p + 64);
  }
  r.signed_bytes = bytes.first(expected - kTagBytes);
  r.tag = bytes.subspan(expected - kTagBytes, kTagBytes);
  out = r;
  return WireError::ok;
}

WireError verify(const Packet& packet, const KeyRing& keys) noexcept {
  const MirrorKey* key = keys.find(packet.head.key_id);
  if (key == nullptr) return WireError::unknown_key;
  if (packet.tag.size() != kTagBytes) return WireError::auth_failed;
  return tag_matches(key->bytes(), packet.signed_bytes, packet.tag.first<kTagBytes>(),
                     packet.head.tag)
             ? WireError::ok
             : WireError::auth_failed;
}

}  // namespace hil::io::bus::mirror
