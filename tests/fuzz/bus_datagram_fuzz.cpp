// libFuzzer target for the bus mirror's datagram decoder (io/bus/mirror/wire.hpp and
// receiver.hpp): arbitrary bytes as a UDP payload, parsed, verified with a fixed key and run
// through the receiver's rules. Besides crashes and sanitizer reports it traps when a promise
// breaks: an accepted packet whose spans leave the input or disagree with its size, a
// packet that does not survive re-encoding byte for byte, or a forgery that is applied.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target bus_datagram_fuzz
//   cmake --build --preset fuzz --target run_bus_datagram_fuzz   # 60 s with the seed corpus

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "io/bus/mirror/receiver.hpp"
#include "io/bus/mirror/wire.hpp"

namespace {

namespace m = hil::io::bus::mirror;
namespace bus = hil::io::bus;

void require(bool promise) {
  if (!promise) __builtin_trap();
}

/// The key the seed corpus is signed with: bytes 0x00..0x1f (as in wire_test's golden packet).
m::MirrorKey fuzz_key() {
  std::array<std::uint8_t, m::MirrorKey::kBytes> raw{};
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<std::uint8_t>(i);
  return m::MirrorKey::from_bytes(raw);
}

struct World {
  bus::BusSchema schema;
  m::KeyRing keys;
  m::ReceiveCounters totals;
  m::Receiver receiver;
  World() : schema(make_schema()), receiver(schema, keys, totals) {
    keys.add(1, fuzz_key());
    receiver.expect(0, 0);
    receiver.expect(1, 0);
  }
  static bus::BusSchema make_schema() {
    bus::BusSchema s{.name = "fuzz"};
    s.regions.push_back({.name = "a", .writer = "w", .channels = {{"a.x", "-"}, {"a.y", "-"}}});
    bus::RegionSchema big{.name = "big", .writer = "w"};
    for (std::size_t i = 0; i < bus::kMaxRegionValues; ++i) big.channels.push_back({"c", "-"});
    s.regions.push_back(big);
    return s;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World world;
  const std::span<const std::uint8_t> bytes(data, size);
  m::Packet p;
  const m::WireError e = m::parse(bytes, p);
  if (e == m::WireError::ok) {
    const auto inside = [&](std::span<const std::uint8_t> s) {
      return s.empty() || (s.data() >= data && s.data() + s.size() <= data + size);
    };
    require(inside(p.signed_bytes) && inside(p.tag) && inside(p.value_bytes));
    require(p.tag.size() == m::kTagBytes && p.signed_bytes.size() + m::kTagBytes == size);
    const m::WireError v = m::verify(p, world.keys);
    require(v == m::WireError::ok || v == m::WireError::auth_failed ||
            v == m::WireError::unknown_key);
    // Re-encoding a parsed packet gives the same bytes but (perhaps) for the tag
    std::array<std::uint8_t, m::kMaxDatagramBytes> out{};
    const m::MirrorKey key = fuzz_key();
    std::size_t n = 0;
    if (p.head.type == m::PacketType::data) {
      std::array<double, bus::kMaxRegionValues> values{};
      p.copy_values(values.data());
      n = p.data.n == 0 ? size : m::encode_data(out, p.head, p.data, values.data(), key);
    } else {
      n = m::encode_ping(out, p.head, p.ping, key);
    }
    if (p.head.type != m::PacketType::data || p.data.n != 0) {
      require(n == size);
      require(std::memcmp(out.data(), data, size - m::kTagBytes) == 0);
      if (v == m::WireError::ok && p.head.key_id == 1) {
        require(std::memcmp(out.data() + size - m::kTagBytes, p.tag.data(), m::kTagBytes) == 0);
      }
    }
  } else {
    require(e != m::WireError::unknown_key && e != m::WireError::auth_failed);
  }
  const std::uint64_t applied = world.totals.applied.load();
  m::Packet q;
  const m::Verdict verdict = world.receiver.accept(bytes, 0, q);
  if (verdict == m::Verdict::applied) {
    require(e == m::WireError::ok && m::verify(p, world.keys) == m::WireError::ok);
    require(world.totals.applied.load() == applied + 1);
  }
  return 0;
}
