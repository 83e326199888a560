// cannelloni packet format v2 (io/can/transport/cannelloni_codec.hpp): hand-computed byte vectors
// for classic, extended, RTR, FD and error frames; truncated, oversized and malformed packets;
// sequence numbers with u8 wraparound.

#include "io/can/transport/cannelloni_codec.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "tests/support/frame_helpers.hpp"

namespace hil::io::can::cannelloni {
namespace {

using test::make_fd;
using test::make_frame;
using test::make_remote;
using Bytes = std::vector<std::uint8_t>;

Bytes encode(std::uint8_t sequence, const std::vector<CanFrame>& frames, std::size_t limit = 1400) {
  Bytes buffer(limit);
  PacketWriter writer(buffer);
  writer.begin(sequence);
  for (const CanFrame& f : frames) EXPECT_EQ(writer.append(f), PacketWriter::Append::appended);
  const auto packet = writer.finish();
  return {packet.begin(), packet.end()};
}

std::vector<CanFrame> decode(const Bytes& packet, PacketError expected = PacketError::none) {
  PacketReader reader(packet);
  EXPECT_EQ(reader.error(), expected) << to_string(reader.error());
  std::vector<CanFrame> frames;
  CanFrame f;
  while (reader.next(f)) frames.push_back(f);
  return frames;
}

TEST(CannelloniCodec, ClassicStandardFrameBytes) {
  const Bytes packet = encode(7, {make_frame(0x123, {0xDE, 0xAD})});
  const Bytes expected{0x02, 0x00, 0x07, 0x00, 0x01,  // version 2, DATA, seq 7, 1 frame
                       0x00, 0x00, 0x01, 0x23,        // id 0x123, no flags
                       0x02, 0xDE, 0xAD};             // len 2, data
  EXPECT_EQ(packet, expected);
  EXPECT_EQ(decode(packet), std::vector<CanFrame>{make_frame(0x123, {0xDE, 0xAD})});
}

TEST(CannelloniCodec, ExtendedRemoteAndErrorFrameBytes) {
  const std::vector<CanFrame> frames{
      make_frame(0x18FF0001, {1, 2, 3}, kExtended),
      make_remote(0x7FF, 4),  // RTR: len is the DLC, no data section
      make_remote(0x1ABCDEF0, 0, true),
      make_frame(0x40, {0, 0, 0, 0, 0, 0, 0, 0}, kError),  // CAN_ERR_BUSOFF class
  };
  const Bytes expected{
      0x02, 0x00, 0xFF, 0x00, 0x04,                    // seq 255, 4 frames
      0x98, 0xFF, 0x00, 0x01, 0x03, 0x01, 0x02, 0x03,  // EFF | 0x18FF0001, len 3
      0x40, 0x00, 0x07, 0xFF, 0x04,                    // RTR | 0x7FF, DLC 4, no data
      0xDA, 0xBC, 0xDE, 0xF0, 0x00,                    // EFF | RTR | 0x1ABCDEF0, DLC 0
      0x20, 0x00, 0x00, 0x40, 0x08, 0,    0,    0,    0, 0, 0, 0, 0,  // ERR | 0x40, len 8
  };
  EXPECT_EQ(encode(255, frames), expected);
  EXPECT_EQ(decode(expected), frames);
}

TEST(CannelloniCodec, FdFramesCarryTheFlagsByte) {
  const std::vector<CanFrame> frames{make_fd(0x100, 12, kBrs), make_fd(0x1, 0, kExtended | kEsi)};
  Bytes expected{0x02, 0x00, 0x00, 0x00, 0x02,         //
                 0x00, 0x00, 0x01, 0x00, 0x8C, 0x01};  // id 0x100, len 12 | 0x80, BRS
  for (std::uint8_t i = 0; i < 12; ++i) expected.push_back(i);
  for (const std::uint8_t b : {0x80, 0x00, 0x00, 0x01, 0x80, 0x02}) expected.push_back(b);  // ESI
  EXPECT_EQ(encode(0, frames), expected);
  EXPECT_EQ(decode(expected), frames);
}

TEST(CannelloniCodec, FdFlagBitsBeyondBrsAndEsiAreIgnored) {
  // Newer kernels set CANFD_FDF (0x04) in canfd_frame.flags; cannelloni forwards it as is.
  const Bytes packet{0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x81, 0x05, 0xAA};
  CanFrame expected = make_fd(0x100, 1, kBrs);
  expected.data[0] = 0xAA;
  EXPECT_EQ(decode(packet), std::vector<CanFrame>{expected});
}

TEST(CannelloniCodec, EmptyPacketIsValidAndHoldsNothing) {
  EXPECT_TRUE(decode({0x02, 0x00, 0x09, 0x00, 0x00}).empty());
}

TEST(CannelloniCodec, EveryTruncationIsRejectedWithoutFrames) {
  const Bytes full =
      encode(1, {make_frame(0x10, {1, 2, 3, 4}), make_fd(0x20, 64, kBrs), make_remote(0x30, 8)});
  for (std::size_t size = 0; size < full.size(); ++size) {
    const Bytes cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(size));
    PacketReader reader(cut);
    EXPECT_TRUE(is_truncation(reader.error()))
        << "size " << size << ": " << to_string(reader.error());
    EXPECT_EQ(reader.remaining(), 0U);
    CanFrame f;
    EXPECT_FALSE(reader.next(f));
  }
  EXPECT_EQ(decode(full).size(), 3U);
}

TEST(CannelloniCodec, BytesAfterTheCountedFramesAreRejected) {
  Bytes packet = encode(1, {make_frame(0x10, {1})});
  packet.push_back(0x00);
  EXPECT_TRUE(decode(packet, PacketError::trailing_bytes).empty());
  // A count that is too small has the same effect.
  Bytes two = encode(1, {make_frame(0x10, {1}), make_frame(0x11, {2})});
  two[4] = 1;
  EXPECT_TRUE(decode(two, PacketError::trailing_bytes).empty());
}

TEST(CannelloniCodec, MalformedHeadersAndFramesAreRejected) {
  EXPECT_TRUE(decode({0x01, 0x00, 0x00, 0x00, 0x00}, PacketError::bad_version).empty());
  EXPECT_TRUE(decode({0x02, 0x01, 0x00, 0x00, 0x00}, PacketError::bad_op_code).empty());  // ACK
  const Bytes header{0x02, 0x00, 0x00, 0x00, 0x01};
  auto with = [&](std::initializer_list<std::uint8_t> frame) {
    Bytes p = header;
    p.insert(p.end(), frame);
    return p;
  };
  // Classic length 9.
  EXPECT_TRUE(
      decode(with({0, 0, 0, 1, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0}), PacketError::bad_length).empty());
  // FD length 13 is no DLC length.
  Bytes fd13 = with({0, 0, 0, 1, 0x8D, 0});
  fd13.resize(fd13.size() + 13);
  EXPECT_TRUE(decode(fd13, PacketError::bad_length).empty());
  // 11-bit id 0x800.
  EXPECT_TRUE(decode(with({0, 0, 0x08, 0, 0}), PacketError::bad_frame).empty());
  // RTR on an FD frame.
  EXPECT_TRUE(decode(with({0x40, 0, 0, 1, 0x80, 0}), PacketError::bad_frame).empty());
}

TEST(CannelloniCodec, OneBadFrameRejectsTheWholePacket) {
  Bytes packet = encode(3, {make_frame(0x10, {1}), make_frame(0x11, {2})});
  packet[packet.size() - 2] = 9;  // second frame's length byte → 9, and now too short too
  PacketReader reader(packet);
  EXPECT_NE(reader.error(), PacketError::none);
  EXPECT_EQ(reader.remaining(), 0U);
}

TEST(CannelloniCodec, WriterStopsAtTheSizeLimitAndRefusesInvalidFrames) {
  Bytes buffer(kHeaderBytes + std::size_t{3} * 13);  // room for exactly three 8-byte classic frames
  PacketWriter writer(buffer);
  writer.begin(0);
  const CanFrame eight = make_frame(0x1, {1, 2, 3, 4, 5, 6, 7, 8});
  for (int i = 0; i < 3; ++i) EXPECT_EQ(writer.append(eight), PacketWriter::Append::appended);
  EXPECT_EQ(writer.append(make_frame(0x2, {})), PacketWriter::Append::full);
  CanFrame bad = make_frame(0x800, {});  // 11-bit id out of range
  EXPECT_EQ(writer.append(bad), PacketWriter::Append::invalid);
  EXPECT_EQ(writer.frame_count(), 3);
  EXPECT_EQ(writer.finish().size(), buffer.size());
}

TEST(CannelloniCodec, EncodedSizeMatchesTheBytesWritten) {
  for (const CanFrame& f : {make_frame(0x1, {}), make_frame(0x1, {1, 2, 3, 4, 5, 6, 7, 8}),
                            make_remote(0x1, 8), make_fd(0x1, 64), make_fd(0x1, 0)}) {
    EXPECT_EQ(encode(0, {f}).size(), kHeaderBytes + encoded_size(f));
  }
}

TEST(CannelloniSequence, CountsGapsWithWraparound) {
  SequenceTracker t;
  using Order = SequenceTracker::Order;
  EXPECT_EQ(t.observe(250).order, Order::first);
  for (const std::uint8_t s : {251, 252, 253, 254, 255, 0, 1}) {
    EXPECT_EQ(t.observe(s).order, Order::in_order) << int{s};
  }
  auto r = t.observe(4);  // 2 and 3 lost
  EXPECT_EQ(r.order, Order::gap);
  EXPECT_EQ(r.missing, 2);
  (void)t.observe(254);  // far behind: late, expectation unchanged (5)
  r = t.observe(5);
  EXPECT_EQ(r.order, Order::in_order);
  EXPECT_EQ(t.observe(0xFF).order, Order::late);
  EXPECT_EQ(t.observe(5).order, Order::late);                // duplicate
  for (std::uint8_t s = 6; s != 0; ++s) (void)t.observe(s);  // 6..255
  r = t.observe(3);                                          // across the wrap: 0, 1, 2 lost
  EXPECT_EQ(r.order, Order::gap);
  EXPECT_EQ(r.missing, 3);
}

TEST(CannelloniSequence, LargestForwardJumpIsAGapAndOneMoreIsLate) {
  SequenceTracker a;
  (void)a.observe(0);
  const auto gap = a.observe(128);  // expected 1: 127 missing
  EXPECT_EQ(gap.order, SequenceTracker::Order::gap);
  EXPECT_EQ(gap.missing, 127);
  SequenceTracker b;
  (void)b.observe(0);
  EXPECT_EQ(b.observe(129).order, SequenceTracker::Order::late);
}

}  // namespace
}  // namespace hil::io::can::cannelloni
