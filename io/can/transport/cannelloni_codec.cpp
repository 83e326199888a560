#include "io/can/transport/cannelloni_codec.hpp"

#include <algorithm>

namespace hil::io::can::cannelloni {
namespace {

constexpr std::uint32_t kIdMask = 0x1FFF'FFFF;  // CAN_EFF_MASK == CAN_ERR_MASK

std::uint32_t read_be32(const std::uint8_t* p) noexcept {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

void write_be32(std::uint8_t* p, std::uint32_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
}

/// Writes `frame` at `out` (which holds encoded_size(frame) bytes); returns the bytes written.
std::size_t encode_frame(const CanFrame& frame, std::uint8_t* out) noexcept {
  std::uint32_t raw = frame.id;
  if (frame.extended()) raw |= kEffFlag;
  if (frame.remote()) raw |= kRtrFlag;
  if (frame.error()) raw |= kErrFlag;
  write_be32(out, raw);
  std::size_t n = 4;
  out[n++] = static_cast<std::uint8_t>(frame.length | (frame.fd() ? kFdLengthFlag : 0));
  if (frame.fd()) {
    out[n++] = static_cast<std::uint8_t>((frame.brs() ? kFdBrs : 0) | (frame.esi() ? kFdEsi : 0));
  }
  if (!frame.remote()) {
    std::copy_n(frame.data.begin(), frame.length, out + n);
    n += frame.length;
  }
  return n;
}

}  // namespace

std::string_view to_string(PacketError error) noexcept {
  switch (error) {
    case PacketError::none:
      return "ok";
    case PacketError::truncated_header:
      return "truncated header";
    case PacketError::bad_version:
      return "version is not 2";
    case PacketError::bad_op_code:
      return "op code is not DATA";
    case PacketError::truncated_frame:
      return "packet ends inside a frame";
    case PacketError::bad_length:
      return "bad frame length";
    case PacketError::bad_frame:
      return "bad frame (11-bit id > 0x7FF or FD remote)";
    case PacketError::trailing_bytes:
      return "bytes after the last frame";
  }
  return "unknown";
}

std::size_t encoded_size(const CanFrame& frame) noexcept {
  return 5 + (frame.fd() ? 1 : 0) + (frame.remote() ? 0 : frame.length);
}

PacketError decode_frame(std::span<const std::uint8_t> bytes, CanFrame& frame,
                         std::size_t& consumed) noexcept {
  if (bytes.size() < 5) return PacketError::truncated_frame;
  const std::uint32_t raw = read_be32(bytes.data());
  const bool fd = (bytes[4] & kFdLengthFlag) != 0;
  const std::uint8_t length = bytes[4] & ~kFdLengthFlag;
  std::size_t pos = 5;
  std::uint8_t fd_flags = 0;
  if (fd) {
    if (bytes.size() < 6) return PacketError::truncated_frame;
    fd_flags = bytes[pos++];
  }

  frame = CanFrame{};
  frame.id = raw & kIdMask;
  frame.length = length;
  if ((raw & kEffFlag) != 0) frame.flags |= kExtended;
  if ((raw & kRtrFlag) != 0) frame.flags |= kRemote;
  if ((raw & kErrFlag) != 0) frame.flags |= kError;
  if (fd) frame.flags |= kFd;
  if (fd && (fd_flags & kFdBrs) != 0) frame.flags |= kBrs;
  if (fd && (fd_flags & kFdEsi) != 0) frame.flags |= kEsi;

  if (!frame.extended() && !frame.error() && frame.id > kMaxStandardId) {
    return PacketError::bad_frame;
  }
  if (fd && frame.remote()) return PacketError::bad_frame;
  if (fd ? !is_valid_fd_length(length) : length > kMaxClassicLength) {
    return PacketError::bad_length;
  }
  if (!frame.remote()) {
    if (bytes.size() - pos < length) return PacketError::truncated_frame;
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(pos), length, frame.data.begin());
    pos += length;
  }
  consumed = pos;
  return PacketError::none;
}

void PacketWriter::begin(std::uint8_t sequence) noexcept {
  buffer_[0] = kVersion;
  buffer_[1] = kOpData;
  buffer_[2] = sequence;
  size_ = kHeaderBytes;
  count_ = 0;
}

PacketWriter::Append PacketWriter::append(const CanFrame& frame) noexcept {
  if (!is_valid(frame)) return Append::invalid;
  if (size_ == 0) begin(0);
  if (count_ == 0xFFFF || size_ + encoded_size(frame) > buffer_.size()) return Append::full;
  size_ += encode_frame(frame, buffer_.data() + size_);
  ++count_;
  return Append::appended;
}

std::span<const std::uint8_t> PacketWriter::finish() noexcept {
  if (size_ == 0) begin(0);
  buffer_[3] = static_cast<std::uint8_t>(count_ >> 8);
  buffer_[4] = static_cast<std::uint8_t>(count_);
  const std::size_t size = size_;
  size_ = 0;
  return {buffer_.data(), size};
}

PacketReader::PacketReader(std::span<const std::uint8_t> packet) noexcept : packet_(packet) {
  if (packet.size() < kHeaderBytes) {
    error_ = PacketError::truncated_header;
    return;
  }
  header_ = {.version = packet[0],
             .op_code = packet[1],
             .sequence = packet[2],
             .frame_count = static_cast<std::uint16_t>((packet[3] << 8) | packet[4])};
  if (header_.version != kVersion) {
    error_ = PacketError::bad_version;
    return;
  }
  if (header_.op_code != kOpData) {
    error_ = PacketError::bad_op_code;
    return;
  }
  std::size_t offset = kHeaderBytes;
  CanFrame scratch;
  for (std::size_t i = 0; i < header_.frame_count; ++i) {
    std::size_t consumed = 0;
    error_ = decode_frame(packet.subspan(offset), scratch, consumed);
    if (error_ != PacketError::none) return;
    offset += consumed;
  }
  if (offset != packet.size()) {
    error_ = PacketError::trailing_bytes;
    return;
  }
  remaining_ = header_.frame_count;
}

bool PacketReader::next(CanFrame& frame) noexcept {
  if (remaining_ == 0) return false;
  std::size_t consumed = 0;
  (void)decode_frame(packet_.subspan(offset_), frame, consumed);  // validated in the constructor
  offset_ += consumed;
  --remaining_;
  return true;
}

SequenceTracker::Result SequenceTracker::observe(std::uint8_t sequence) noexcept {
  if (!started_) {
    started_ = true;
    expected_ = static_cast<std::uint8_t>(sequence + 1);
    return {.order = Order::first};
  }
  const auto ahead = static_cast<std::uint8_t>(sequence - expected_);  // mod 256
  if (ahead >= 128) return {.order = Order::late};
  expected_ = static_cast<std::uint8_t>(sequence + 1);
  if (ahead == 0) return {.order = Order::in_order};
  return {.order = Order::gap, .missing = ahead};
}

}  // namespace hil::io::can::cannelloni
