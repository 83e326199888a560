#pragma once
// cannelloni's UDP packet format, version 2 (https://github.com/mguentner/cannelloni,
// doc/udp_format.md), as pure functions so that they can be tested and fuzzed apart from the
// socket. Everything is big-endian.
//
//   header   version (2) | op code (0 = DATA) | sequence number (u8) | frame count (u16)
//   frame    can_id (u32, Linux flags: EFF 0x80000000, RTR 0x40000000, ERR 0x20000000)
//            | len (u8; 0x80 marks CAN FD) | FD flags (u8, FD only: BRS 0x01, ESI 0x02)
//            | data (len & 0x7F bytes; none for RTR frames, whose len is the requested DLC)
//
// RTR: cannelloni's parser and builder skip the data section when CAN_RTR_FLAG is set and keep
// the DLC in len; so do we. Decoding accepts and ignores FD flag bits other than BRS/ESI
// (newer kernels set CANFD_FDF 0x04); encoding writes only BRS/ESI.
// Thread-safety: stateless functions; PacketWriter/PacketReader/SequenceTracker are values
// used by one thread.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "io/can/can_frame.hpp"

namespace hil::io::can::cannelloni {

inline constexpr std::uint8_t kVersion = 2;
inline constexpr std::uint8_t kOpData = 0;
inline constexpr std::size_t kHeaderBytes = 5;
inline constexpr std::size_t kMaxFrameBytes = 4 + 1 + 1 + kMaxFdLength;  // 70
inline constexpr std::uint32_t kEffFlag = 0x8000'0000U;
inline constexpr std::uint32_t kRtrFlag = 0x4000'0000U;
inline constexpr std::uint32_t kErrFlag = 0x2000'0000U;
inline constexpr std::uint8_t kFdLengthFlag = 0x80;
inline constexpr std::uint8_t kFdBrs = 0x01;
inline constexpr std::uint8_t kFdEsi = 0x02;

enum class PacketError : std::uint8_t {
  none,
  truncated_header,  ///< fewer than 5 bytes
  bad_version,       ///< version byte is not 2
  bad_op_code,       ///< not DATA (ACK/NACK are not used over UDP)
  truncated_frame,   ///< the packet ends inside a frame
  bad_length,        ///< classic length > 8, or an FD length that is not a DLC length
  bad_frame,         ///< 11-bit id above 0x7FF, or RTR on an FD frame
  trailing_bytes,    ///< bytes left after the counted frames
};

[[nodiscard]] std::string_view to_string(PacketError error) noexcept;
/// True for the errors that mean "cut short" (counted as truncated rather than malformed).
[[nodiscard]] constexpr bool is_truncation(PacketError e) noexcept {
  return e == PacketError::truncated_header || e == PacketError::truncated_frame;
}

struct PacketHeader {
  std::uint8_t version = 0;
  std::uint8_t op_code = 0;
  std::uint8_t sequence = 0;
  std::uint16_t frame_count = 0;
};

/// Bytes `frame` takes in a packet.
[[nodiscard]] std::size_t encoded_size(const CanFrame& frame) noexcept;

/// Decodes the frame at the start of `bytes` into `frame`; `consumed` gets its size.
[[nodiscard]] PacketError decode_frame(std::span<const std::uint8_t> bytes, CanFrame& frame,
                                       std::size_t& consumed) noexcept;

/// Builds packets in a caller-owned buffer (its size is the packet size limit).
class PacketWriter {
 public:
  enum class Append : std::uint8_t { appended, full, invalid };

  explicit PacketWriter(std::span<std::uint8_t> buffer) noexcept : buffer_(buffer) {}

  /// Starts a packet with this sequence number; forgets any unfinished one.
  void begin(std::uint8_t sequence) noexcept;
  /// full when the frame does not fit what is left (or 65535 frames are in); invalid when
  /// !is_valid(frame). Neither changes the packet.
  [[nodiscard]] Append append(const CanFrame& frame) noexcept;
  /// Writes the frame count into the header; returns the packet's bytes.
  [[nodiscard]] std::span<const std::uint8_t> finish() noexcept;

  [[nodiscard]] std::uint16_t frame_count() const noexcept { return count_; }
  [[nodiscard]] bool started() const noexcept { return size_ != 0; }

 private:
  std::span<std::uint8_t> buffer_;
  std::size_t size_ = 0;  // 0: no packet started
  std::uint16_t count_ = 0;
};

/// Validates a whole packet first — a bad packet yields no frame at all — then hands out its
/// frames one at a time (the socket side drains a packet over several receive() calls).
class PacketReader {
 public:
  PacketReader() noexcept = default;  ///< an empty reader with nothing to hand out
  explicit PacketReader(std::span<const std::uint8_t> packet) noexcept;

  [[nodiscard]] PacketError error() const noexcept { return error_; }
  /// Valid when error() is none, or any error but a truncated header.
  [[nodiscard]] const PacketHeader& header() const noexcept { return header_; }
  /// Frames not handed out yet (0 for a bad packet).
  [[nodiscard]] std::size_t remaining() const noexcept { return remaining_; }
  /// The next frame; false when none is left.
  [[nodiscard]] bool next(CanFrame& frame) noexcept;

 private:
  std::span<const std::uint8_t> packet_;
  PacketHeader header_;
  PacketError error_ = PacketError::none;
  std::size_t offset_ = kHeaderBytes;
  std::size_t remaining_ = 0;
};

/// Counts what a receiver's sequence numbers say about loss (u8, wraps at 256). The first
/// packet sets the reference; a jump forward by 1..127 beyond the expected number is a gap
/// of that many lost packets; anything behind (128..255 forward) is a late or duplicated
/// packet and leaves the expectation alone.
class SequenceTracker {
 public:
  enum class Order : std::uint8_t { first, in_order, gap, late };
  struct Result {
    Order order = Order::first;
    std::uint8_t missing = 0;  ///< packets skipped, for gap
  };
  [[nodiscard]] Result observe(std::uint8_t sequence) noexcept;

 private:
  bool started_ = false;
  std::uint8_t expected_ = 0;
};

}  // namespace hil::io::can::cannelloni
