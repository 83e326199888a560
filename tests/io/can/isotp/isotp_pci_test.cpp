// The ISO-TP PCI codec (io/can/isotp/isotp_pci): every frame type in both directions,
// including CAN FD's escape single frame and the 32-bit first frame, the receiver's
// length rules, extended addressing's offset, and STmin's encodings.

#include "io/can/isotp/isotp_pci.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

namespace hil::io::can::isotp {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes frame_of(std::initializer_list<std::uint8_t> head, std::size_t can_dl,
               std::uint8_t fill = 0xAA) {
  Bytes b(head);
  b.resize(can_dl, fill);
  return b;
}

Bytes encoded(const Pci& pci) {
  std::array<std::uint8_t, 8> out{};
  const std::size_t n = encode(pci, out);
  return {out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n)};
}

TEST(IsotpPci, SingleFrameClassic) {
  const Bytes f{0x03, 0x22, 0xF1, 0x90, 0xCC, 0xCC, 0xCC, 0xCC};
  const Decoded d = decode(f, 0);
  ASSERT_EQ(d.error, PciError::none);
  EXPECT_EQ(d.pci.type, FrameType::single);
  EXPECT_EQ(d.pci.length, 3U);
  EXPECT_FALSE(d.pci.escape);
  EXPECT_EQ(Bytes(d.payload.begin(), d.payload.end()), (Bytes{0x22, 0xF1, 0x90}));
  EXPECT_EQ(encoded(d.pci), Bytes{0x03});
}

TEST(IsotpPci, SingleFrameFdEscape) {
  Bytes f = frame_of({0x00, 0x0A}, 12);
  const Decoded d = decode(f, 0);
  ASSERT_EQ(d.error, PciError::none);
  EXPECT_TRUE(d.pci.escape);
  EXPECT_EQ(d.pci.length, 10U);
  EXPECT_EQ(d.payload.size(), 10U);
  EXPECT_EQ(encoded(d.pci), (Bytes{0x00, 0x0A}));
  // the largest: 62 bytes in 64
  EXPECT_EQ(decode(frame_of({0x00, 62}, 64), 0).pci.length, 62U);
  EXPECT_EQ(decode(frame_of({0x00, 63}, 64), 0).error, PciError::bad_length);
}

TEST(IsotpPci, SingleFrameLengthRules) {
  EXPECT_EQ(decode(Bytes{0x00, 1, 2, 3}, 0).error, PciError::bad_length);     // SF_DL 0
  EXPECT_EQ(decode(Bytes{0x04, 1, 2, 3}, 0).error, PciError::bad_length);     // beyond the frame
  EXPECT_EQ(decode(frame_of({0x05}, 12), 0).error, PciError::bad_length);     // FD > 8: escape
  EXPECT_EQ(decode(frame_of({0x00, 0}, 12), 0).error, PciError::bad_length);  // escape 0
  EXPECT_EQ(decode(Bytes{0x07, 1, 2, 3, 4, 5, 6, 7}, 0).pci.length, 7U);
  EXPECT_EQ(decode(Bytes{}, 0).error, PciError::too_short);
}

TEST(IsotpPci, FirstFrame12Bit) {
  const Bytes f{0x10, 0x14, 1, 2, 3, 4, 5, 6};
  const Decoded d = decode(f, 0);
  ASSERT_EQ(d.error, PciError::none);
  EXPECT_EQ(d.pci.type, FrameType::first);
  EXPECT_EQ(d.pci.length, 20U);
  EXPECT_EQ(d.payload.size(), 6U);
  EXPECT_EQ(encoded(d.pci), (Bytes{0x10, 0x14}));
  EXPECT_EQ(decode(Bytes{0x1F, 0xFF, 1, 2, 3, 4, 5, 6}, 0).pci.length, 4095U);
}

TEST(IsotpPci, FirstFrameEscape32Bit) {
  const Bytes f = frame_of({0x10, 0x00, 0x00, 0x01, 0x00, 0x00}, 64);
  const Decoded d = decode(f, 0);
  ASSERT_EQ(d.error, PciError::none);
  EXPECT_TRUE(d.pci.escape);
  EXPECT_EQ(d.pci.length, 65536U);
  EXPECT_EQ(d.payload.size(), 58U);
  EXPECT_EQ(encoded(d.pci), (Bytes{0x10, 0x00, 0x00, 0x01, 0x00, 0x00}));
  // classic CAN may carry it too
  EXPECT_EQ(decode(Bytes{0x10, 0, 0, 0, 0x10, 0x00, 1, 2}, 0).pci.length, 4096U);
  // an escape for a length that did not need one is ignored
  EXPECT_EQ(decode(Bytes{0x10, 0, 0, 0, 0x0F, 0xFF, 1, 2}, 0).error, PciError::bad_length);
}

TEST(IsotpPci, FirstFrameMinimumLength) {
  // FF_DLmin: 8 in 8 bytes, 7 with an address byte, CAN_DL − 1 above 8 bytes
  EXPECT_EQ(decode(Bytes{0x10, 7, 1, 2, 3, 4, 5, 6}, 0).error, PciError::bad_length);
  EXPECT_EQ(decode(Bytes{0x10, 8, 1, 2, 3, 4, 5, 6}, 0).error, PciError::none);
  EXPECT_EQ(decode(Bytes{0xF1, 0x10, 7, 1, 2, 3, 4, 5}, 1).error, PciError::none);
  EXPECT_EQ(decode(frame_of({0x10, 62}, 64), 0).error, PciError::bad_length);
  EXPECT_EQ(decode(frame_of({0x10, 63}, 64), 0).error, PciError::none);
  EXPECT_EQ(min_first_length(64, 1), 62U);
  // a first frame always fills a whole frame of at least 8 bytes
  EXPECT_EQ(decode(Bytes{0x10, 0x20, 1, 2, 3}, 0).error, PciError::too_short);
}

TEST(IsotpPci, ConsecutiveFrame) {
  const Bytes f{0x2F, 1, 2, 3};
  const Decoded d = decode(f, 0);
  ASSERT_EQ(d.error, PciError::none);
  EXPECT_EQ(d.pci.type, FrameType::consecutive);
  EXPECT_EQ(d.pci.sequence, 15U);
  EXPECT_EQ(d.payload.size(), 3U);
  EXPECT_EQ(encoded(d.pci), Bytes{0x2F});
  EXPECT_EQ(decode(Bytes{0x21}, 0).error, PciError::too_short);  // no data
  EXPECT_EQ(encoded({.type = FrameType::consecutive, .sequence = 16}), Bytes{});
}

TEST(IsotpPci, FlowControlEveryStatus) {
  for (std::uint8_t fs = 0; fs < 3; ++fs) {
    const Bytes f{static_cast<std::uint8_t>(0x30 | fs), 4, 0xF3, 0xCC};
    const Decoded d = decode(f, 0);
    ASSERT_EQ(d.error, PciError::none);
    EXPECT_EQ(d.pci.type, FrameType::flow_control);
    EXPECT_EQ(static_cast<int>(d.pci.flow_status), fs);
    EXPECT_EQ(d.pci.block_size, 4U);
    EXPECT_EQ(d.pci.st_min, 0xF3U);
    EXPECT_EQ(encoded(d.pci), (Bytes{f[0], 4, 0xF3}));
  }
  EXPECT_EQ(decode(Bytes{0x33, 0, 0}, 0).error, PciError::reserved_flow_status);
  EXPECT_EQ(decode(Bytes{0x30, 0}, 0).error, PciError::too_short);
}

TEST(IsotpPci, ReservedTypesAreRejected) {
  for (unsigned type = 4; type < 16; ++type) {
    const Bytes f{static_cast<std::uint8_t>(type << 4U), 1, 2, 3, 4, 5, 6, 7};
    EXPECT_EQ(decode(f, 0).error, PciError::reserved_type) << type;
  }
}

TEST(IsotpPci, ExtendedAddressingSkipsTheAddressByte) {
  const Bytes f{0xF1, 0x02, 0x10, 0x03, 0xCC, 0xCC, 0xCC, 0xCC};
  const Decoded d = decode(f, 1);
  ASSERT_EQ(d.error, PciError::none);
  EXPECT_EQ(d.pci.length, 2U);
  EXPECT_EQ(Bytes(d.payload.begin(), d.payload.end()), (Bytes{0x10, 0x03}));
  EXPECT_EQ(decode(Bytes{0x07, 0x41, 2, 3, 4, 5, 6, 7}, 1).error, PciError::reserved_type);
  EXPECT_EQ(decode(Bytes{0xF1, 0x07, 1, 2, 3, 4, 5, 6}, 1).error, PciError::bad_length);
  EXPECT_EQ(decode(Bytes{0xF1}, 1).error, PciError::too_short);
}

TEST(IsotpPci, EncodeRefusesWhatHasNoEncoding) {
  EXPECT_EQ(encoded({.type = FrameType::single, .length = 0}), Bytes{});
  EXPECT_EQ(encoded({.type = FrameType::single, .length = 8}), Bytes{});
  EXPECT_EQ(encoded({.type = FrameType::single, .length = 256, .escape = true}), Bytes{});
  EXPECT_EQ(encoded({.type = FrameType::first, .length = 4096}), Bytes{});
  EXPECT_EQ(encoded({.type = FrameType::first, .length = 4095, .escape = true}), Bytes{});
  EXPECT_EQ(encoded({.type = FrameType::flow_control, .flow_status = FlowStatus{3}}), Bytes{});
  std::array<std::uint8_t, 5> small{};
  EXPECT_EQ(encode({.type = FrameType::first, .length = 5000, .escape = true}, small), 0U);
  EXPECT_EQ(encoded({.type = FrameType::first, .length = 0xFFFF'FFFF, .escape = true}),
            (Bytes{0x10, 0, 0xFF, 0xFF, 0xFF, 0xFF}));
}

TEST(IsotpPci, StMinEncodings) {
  EXPECT_EQ(st_min_ns(0x00), 0);
  EXPECT_EQ(st_min_ns(0x05), 5'000'000);
  EXPECT_EQ(st_min_ns(0x7F), 127'000'000);
  EXPECT_EQ(st_min_ns(0xF1), 100'000);
  EXPECT_EQ(st_min_ns(0xF3), 300'000);
  EXPECT_EQ(st_min_ns(0xF9), 900'000);
  for (const std::uint8_t reserved : {0x80, 0xA0, 0xF0, 0xFA, 0xFF}) {
    EXPECT_EQ(st_min_ns(reserved), 127'000'000) << int{reserved};
    EXPECT_FALSE(is_valid_st_min(reserved));
  }
  EXPECT_TRUE(is_valid_st_min(0xF5));
}

}  // namespace
}  // namespace hil::io::can::isotp
