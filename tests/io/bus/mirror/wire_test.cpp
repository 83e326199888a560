// io/bus/mirror/wire.hpp and hmac.hpp: golden bytes of wire format v1 (written by hand from
// docs/bus.md's table; only the tag was computed, with Python's hmac module), the round trip,
// every rejection reason, and HMAC-SHA256 against RFC 4231.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/bus/mirror/hmac.hpp"
#include "io/bus/mirror/wire.hpp"

namespace hil::io::bus::mirror {
namespace {

std::vector<std::uint8_t> from_hex(std::string_view hex) {
  std::vector<std::uint8_t> out;
  int nibble = -1;
  for (const char c : hex) {
    int v = -1;
    if (c >= '0' && c <= '9') v = c - '0';
    if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    if (v < 0) continue;  // spaces for reading
    if (nibble < 0) {
      nibble = v;
    } else {
      out.push_back(static_cast<std::uint8_t>(nibble * 16 + v));
      nibble = -1;
    }
  }
  return out;
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (const std::uint8_t b : bytes) {
    s += kHex[b >> 4];
    s += kHex[b & 0xF];
  }
  return s;
}

MirrorKey test_key(std::uint8_t first = 0) {
  std::array<std::uint8_t, MirrorKey::kBytes> raw{};
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<std::uint8_t>(first + i);
  return MirrorKey::from_bytes(raw);
}

KeyRing ring_of(std::uint8_t id, std::uint8_t first = 0) {
  KeyRing keys;
  keys.add(id, test_key(first));
  return keys;
}

const PacketHead kHead{.type = PacketType::data,
                       .key_id = 1,
                       .flags = 0,
                       .bus_schema_hash = 0x1122334455667788ULL,
                       .session_id = 0x0102030405060708ULL,
                       .session_start_unix_ns = 0x1000000000000001ULL,
                       .packet_seq = 7};
const DataFields kData{.region_id = 3,
                       .n = 2,
                       .region_seq = 42,
                       .tick = -5,
                       .publish_age_ns = 1000,
                       .send_unix_ns = 0x0A0B0C0D0E0F1011ULL,
                       .region_schema_hash = 0xCAFEBABEDEADBEEFULL};
const double kValues[2] = {1.0, -2.5};

// offset: field (the table of docs/bus.md)
const std::string_view kGoldenData =
    "48534231"                           // 0 magic "HSB1"
    "01 01 01 00"                        // 4 version 1, 5 type DATA, 6 key_id 1, 7 flags 0
    "8877665544332211"                   // 8 bus_schema_hash
    "0807060504030201"                   // 16 session_id
    "0100000000000010"                   // 24 session_start_unix_ns
    "0700000000000000"                   // 32 packet_seq 7
    "03000000 02000000"                  // 40 region_id 3, 44 n 2
    "2a00000000000000"                   // 48 region_seq 42
    "fbffffffffffffff"                   // 56 tick -5
    "e803000000000000"                   // 64 publish_age_ns 1000
    "11100f0e0d0c0b0a"                   // 72 send_unix_ns
    "efbeaddebebafeca"                   // 80 region_schema_hash
    "000000000000f03f"                   // 88 value 1.0
    "00000000000004c0"                   // 96 value -2.5
    "f690bd765d1f1a8e5d959c4b0d0bbcfd";  // 104 tag: HMAC-SHA256(00..1f, bytes 0..103)[0, 16)

const PingFields kPing{.ping_seq = 5,
                       .ping_mono_ns = 123456,
                       .ping_session_id = 0x0102030405060708ULL,
                       .send_unix_ns = 0x0A0B0C0D0E0F1011ULL};
const std::string_view kGoldenPing =
    "48534231"                           // 0 magic "HSB1"
    "01 02 01 00"                        // 4 version 1, 5 type PING, 6 key_id 1, 7 flags 0
    "8877665544332211"                   // 8 bus_schema_hash
    "0807060504030201"                   // 16 session_id
    "0100000000000010"                   // 24 session_start_unix_ns
    "0800000000000000"                   // 32 packet_seq 8
    "0500000000000000"                   // 40 ping_seq 5
    "40e2010000000000"                   // 48 ping_mono_ns 123456
    "0807060504030201"                   // 56 ping_session_id
    "11100f0e0d0c0b0a"                   // 64 send_unix_ns
    "13911424ff1d0ba51ed317094877e72e";  // 72 tag

std::vector<std::uint8_t> golden_data() { return from_hex(kGoldenData); }
std::vector<std::uint8_t> golden_ping() { return from_hex(kGoldenPing); }

TEST(MirrorWireTest, DataMatchesTheGoldenBytes) {
  std::array<std::uint8_t, kMaxDatagramBytes> buf{};
  const std::size_t size = encode_data(buf, kHead, kData, kValues, test_key());
  ASSERT_EQ(size, 104U + 16U);
  EXPECT_EQ(to_hex({buf.data(), size}), to_hex(golden_data()));
}

TEST(MirrorWireTest, PingMatchesTheGoldenBytes) {
  std::array<std::uint8_t, kPingBytes> buf{};
  PacketHead h = kHead;
  h.type = PacketType::ping;
  h.packet_seq = 8;
  ASSERT_EQ(encode_ping(buf, h, kPing, test_key()), kPingBytes);
  EXPECT_EQ(to_hex(buf), to_hex(golden_ping()));
}

TEST(MirrorWireTest, DataRoundTrip) {
  std::array<double, kMaxRegionValues> values{};
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.25 * static_cast<double>(i) - 7;
  DataFields f = kData;
  f.n = kMaxRegionValues;
  PacketHead h = kHead;
  h.flags = kFlagRegionInvalid;
  std::array<std::uint8_t, kMaxDatagramBytes> buf{};
  const std::size_t size = encode_data(buf, h, f, values.data(), test_key());
  ASSERT_EQ(size, kMaxDatagramBytes);
  EXPECT_EQ(size, 1448U) << "168 values fit IPv6 at MTU 1500 (1452)";
  Packet p;
  ASSERT_EQ(parse({buf.data(), size}, p), WireError::ok);
  EXPECT_EQ(verify(p, ring_of(1)), WireError::ok);
  EXPECT_EQ(p.head.type, PacketType::data);
  EXPECT_EQ(p.head.flags, kFlagRegionInvalid);
  EXPECT_EQ(p.head.bus_schema_hash, h.bus_schema_hash);
  EXPECT_EQ(p.head.session_id, h.session_id);
  EXPECT_EQ(p.head.session_start_unix_ns, h.session_start_unix_ns);
  EXPECT_EQ(p.head.packet_seq, h.packet_seq);
  EXPECT_EQ(p.data.region_id, f.region_id);
  EXPECT_EQ(p.data.n, kMaxRegionValues);
  EXPECT_EQ(p.data.region_seq, f.region_seq);
  EXPECT_EQ(p.data.tick, -5);
  EXPECT_EQ(p.data.publish_age_ns, f.publish_age_ns);
  EXPECT_EQ(p.data.send_unix_ns, f.send_unix_ns);
  EXPECT_EQ(p.data.region_schema_hash, f.region_schema_hash);
  std::array<double, kMaxRegionValues> back{};
  p.copy_values(back.data());
  EXPECT_EQ(back, values);
}

TEST(MirrorWireTest, PongRoundTripAndReflag) {
  std::array<std::uint8_t, kPingBytes> buf{};
  PacketHead h = kHead;
  h.type = PacketType::pong;
  ASSERT_EQ(encode_ping(buf, h, kPing, test_key()), kPingBytes);
  Packet p;
  ASSERT_EQ(parse(buf, p), WireError::ok);
  EXPECT_EQ(verify(p, ring_of(1)), WireError::ok);
  EXPECT_EQ(p.head.type, PacketType::pong);
  EXPECT_EQ(p.ping.ping_seq, 5U);
  EXPECT_EQ(p.ping.ping_mono_ns, 123456U);
  EXPECT_EQ(p.ping.ping_session_id, kPing.ping_session_id);
  EXPECT_EQ(p.ping.send_unix_ns, kPing.send_unix_ns);

  std::vector<std::uint8_t> data = golden_data();
  reflag(data, kFlagRepeatCopy, test_key());
  ASSERT_EQ(parse(data, p), WireError::ok);
  EXPECT_EQ(p.head.flags, kFlagRepeatCopy);
  EXPECT_EQ(verify(p, ring_of(1)), WireError::ok) << "a repeat copy is signed again";
}

TEST(MirrorWireTest, EncodeRefusesWhatCannotBeSent) {
  std::array<std::uint8_t, kMaxDatagramBytes> buf{};
  DataFields f = kData;
  f.n = 0;
  EXPECT_EQ(encode_data(buf, kHead, f, kValues, test_key()), 0U);
  f.n = kMaxRegionValues + 1;
  EXPECT_EQ(encode_data(buf, kHead, f, kValues, test_key()), 0U);
  EXPECT_EQ(encode_data({buf.data(), 119}, kHead, kData, kValues, test_key()), 0U);
  EXPECT_EQ(encode_ping({buf.data(), kPingBytes - 1}, kHead, kPing, test_key()), 0U);
  EXPECT_EQ(encode_ping(buf, kHead, kPing, test_key()), 0U) << "type DATA is not a ping";
}

WireError parse_only(std::span<const std::uint8_t> bytes) {
  Packet p;
  return parse(bytes, p);
}

TEST(MirrorWireTest, EveryStructuralRejection) {
  const std::vector<std::uint8_t> good = golden_data();
  EXPECT_EQ(parse_only({}), WireError::too_short);
  EXPECT_EQ(parse_only({good.data(), kMinPacketBytes - 1}), WireError::too_short);

  auto with = [&](std::size_t at, std::uint8_t v) {
    std::vector<std::uint8_t> b = good;
    b[at] = v;
    return b;
  };
  EXPECT_EQ(parse_only(with(0, 'X')), WireError::bad_magic);
  EXPECT_EQ(parse_only(with(3, '2')), WireError::bad_magic);
  EXPECT_EQ(parse_only(with(4, 3)), WireError::bad_version);
  EXPECT_EQ(parse_only(with(4, 0)), WireError::bad_version);
  EXPECT_EQ(parse_only(with(5, 0)), WireError::bad_type);
  EXPECT_EQ(parse_only(with(5, 4)), WireError::bad_type);
  EXPECT_EQ(parse_only(with(44, 169)), WireError::too_many_values);
  std::vector<std::uint8_t> huge = with(47, 0x80);  // n = 2^31 + 2: no overflow of the size
  EXPECT_EQ(parse_only(huge), WireError::too_many_values);
  EXPECT_EQ(parse_only(with(44, 3)), WireError::truncated) << "n says more values than sent";
  EXPECT_EQ(parse_only(with(44, 1)), WireError::trailing_bytes) << "n says fewer values";
  for (std::size_t cut = 1; cut <= kTagBytes; ++cut) {  // the tag, then a value, cut short
    EXPECT_EQ(parse_only({good.data(), good.size() - cut}), WireError::truncated) << cut;
  }
  EXPECT_EQ(parse_only({good.data(), good.size() - kTagBytes - 8}), WireError::truncated);
  std::vector<std::uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_EQ(parse_only(longer), WireError::trailing_bytes);
  std::vector<std::uint8_t> ping = golden_ping();
  ping.push_back(0);
  EXPECT_EQ(parse_only(ping), WireError::trailing_bytes);
  EXPECT_EQ(parse_only(golden_ping()), WireError::ok);
}

TEST(MirrorWireTest, AnyBitFlipFailsAuthentication) {
  for (const std::vector<std::uint8_t>& good : {golden_data(), golden_ping()}) {
    const KeyRing keys = ring_of(1);
    std::size_t structural = 0;
    for (std::size_t bit = 0; bit < 8 * good.size(); ++bit) {
      std::vector<std::uint8_t> b = good;
      b[bit / 8] ^= static_cast<std::uint8_t>(1U << (bit % 8));
      Packet p;
      const WireError e = parse(b, p);
      if (e != WireError::ok) {
        ++structural;  // magic, version, type or n: refused before the tag
        continue;
      }
      const WireError v = verify(p, keys);
      if (bit / 8 == 6) {
        EXPECT_EQ(v, WireError::unknown_key) << "key_id bit " << bit;
      } else {
        EXPECT_EQ(v, WireError::auth_failed) << "bit " << bit;
      }
    }
    EXPECT_LE(structural, 4U * 8U + 8U + 8U + 32U) << "only magic..type and n are structural";
  }
}

TEST(MirrorWireTest, WrongKeyAndKeyRotation) {
  const std::vector<std::uint8_t> good = golden_data();
  Packet p;
  ASSERT_EQ(parse(good, p), WireError::ok);
  EXPECT_EQ(verify(p, ring_of(1, 1)), WireError::auth_failed) << "another key, same id";
  EXPECT_EQ(verify(p, ring_of(2)), WireError::unknown_key);
  KeyRing rotating;
  rotating.add(2, test_key(9));
  rotating.add(1, test_key(0));
  EXPECT_EQ(verify(p, rotating), WireError::ok) << "the old key still verifies in a rotation";
  EXPECT_THROW(rotating.add(3, test_key(5)), std::invalid_argument) << "two keys at most";
  EXPECT_THROW(rotating.add(1, test_key(5)), std::invalid_argument);
}

// Wire v2: the same layout, version byte 2, a keyed BLAKE2b-128 tag. The expected tags come from
// Python's hashlib.blake2b(data, key=key, digest_size=16), an implementation independent of
// libsodium's.
TEST(MirrorBlake2bTest, KeyedTagsMatchAnIndependentImplementation) {
  std::vector<std::uint8_t> key32;
  for (std::size_t i = 0; i < 32; ++i) key32.push_back(static_cast<std::uint8_t>(0x40 + 3 * i));
  const std::string fox = "The quick brown fox jumps over the lazy dog";
  std::array<std::uint8_t, kTagBytes> tag{};
  compute_tag(key32, {reinterpret_cast<const std::uint8_t*>(fox.data()), fox.size()}, tag,
              TagKind::blake2b);
  EXPECT_EQ(to_hex(tag), "e80b2fe36a258c1a564e42c9989ac4b0");
  std::vector<std::uint8_t> key64(64);
  std::vector<std::uint8_t> data(255);
  for (std::size_t i = 0; i < key64.size(); ++i) key64[i] = static_cast<std::uint8_t>(i);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i);
  compute_tag(key64, data, tag, TagKind::blake2b);
  EXPECT_EQ(to_hex(tag), "5a867fe7ef93d24a0509b446ce554530");
  EXPECT_TRUE(tag_matches(key64, data, tag, TagKind::blake2b));
  EXPECT_FALSE(tag_matches(key64, data, tag, TagKind::hmac_sha256)) << "the kind is part of it";
}

TEST(MirrorWireTest, BothVersionsRoundTripAndNameTheirTag) {
  const KeyRing keys = ring_of(1);
  for (const TagKind kind : {TagKind::hmac_sha256, TagKind::blake2b}) {
    PacketHead h = kHead;
    h.tag = kind;
    std::array<std::uint8_t, kMaxDatagramBytes> buf{};
    const std::size_t size = encode_data(buf, h, kData, kValues, test_key());
    ASSERT_GT(size, 0U);
    EXPECT_EQ(buf[4], static_cast<std::uint8_t>(kind)) << "the version byte says which tag";
    Packet p;
    ASSERT_EQ(parse({buf.data(), size}, p), WireError::ok);
    EXPECT_EQ(p.head.tag, kind);
    EXPECT_EQ(verify(p, keys), WireError::ok);
    // The other version's tag over the same bytes: a version byte changed in flight fails
    std::vector<std::uint8_t> other(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(size));
    other[4] = kind == TagKind::blake2b ? 1 : 2;
    ASSERT_EQ(parse(other, p), WireError::ok);
    EXPECT_EQ(verify(p, keys), WireError::auth_failed);
    // A repeat copy keeps its version
    reflag({buf.data(), size}, kFlagRepeatCopy, test_key());
    ASSERT_EQ(parse({buf.data(), size}, p), WireError::ok);
    EXPECT_EQ(p.head.tag, kind);
    EXPECT_EQ(verify(p, keys), WireError::ok);
  }
  EXPECT_EQ(to_hex(golden_data()).substr(8, 2), "01") << "v1 packets stay byte-identical";
}

struct Rfc4231Case {
  int number;
  std::vector<std::uint8_t> key;
  std::string data;
  std::string_view hmac;
};

TEST(MirrorHmacTest, Rfc4231TestCases) {
  std::vector<std::uint8_t> key4;
  for (std::uint8_t i = 1; i <= 25; ++i) key4.push_back(i);
  const std::vector<Rfc4231Case> cases = {
      {1, std::vector<std::uint8_t>(20, 0x0b), "Hi There",
       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
      {2,
       {'J', 'e', 'f', 'e'},
       "what do ya want for nothing?",
       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
      {3, std::vector<std::uint8_t>(20, 0xaa), std::string(50, '\xdd'),
       "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
      {4, key4, std::string(50, '\xcd'),
       "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
      {6, std::vector<std::uint8_t>(131, 0xaa),
       "Test Using Larger Than Block-Size Key - Hash Key First",
       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
      {7, std::vector<std::uint8_t>(131, 0xaa),
       "This is a test using a larger than block-size key and a larger than block-size data. "
       "The key needs to be hashed before being used by the HMAC algorithm.",
       "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
  };
  for (const Rfc4231Case& c : cases) {
    const std::span<const std::uint8_t> data(reinterpret_cast<const std::uint8_t*>(c.data.data()),
                                             c.data.size());
    EXPECT_EQ(to_hex(hmac_sha256(c.key, data)), c.hmac) << "RFC 4231 test case " << c.number;
    std::array<std::uint8_t, kTagBytes> tag{};
    compute_tag(c.key, data, tag);
    EXPECT_EQ(to_hex(tag), c.hmac.substr(0, 32)) << "RFC 4868 truncation, case " << c.number;
    EXPECT_TRUE(tag_matches(c.key, data, tag));
    tag[15] ^= 1;
    EXPECT_FALSE(tag_matches(c.key, data, tag));
  }
}

}  // namespace
}  // namespace hil::io::bus::mirror
