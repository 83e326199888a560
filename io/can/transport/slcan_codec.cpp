#include "io/can/transport/slcan_codec.hpp"

namespace hil::io::can::slcan {
namespace {

constexpr std::string_view kHexDigits = "0123456789ABCDEF";
constexpr std::string_view kCommandLetters = "OCLSsVvNFZMmXWUQAP";

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/// The whole of `digits` as a hex number; false if any character is not a hex digit.
bool parse_hex(std::string_view digits, std::uint32_t& value) noexcept {
  value = 0;
  for (const char c : digits) {
    const int v = hex_value(c);
    if (v < 0) return false;
    value = (value << 4) | static_cast<std::uint32_t>(v);
  }
  return true;
}

struct FrameKind {
  bool extended, remote, fd, brs;
};

std::optional<FrameKind> frame_kind(char c) noexcept {
  switch (c) {
    case 't':
      return FrameKind{false, false, false, false};
    case 'T':
      return FrameKind{true, false, false, false};
    case 'r':
      return FrameKind{false, true, false, false};
    case 'R':
      return FrameKind{true, true, false, false};
    case 'd':
      return FrameKind{false, false, true, false};
    case 'D':
      return FrameKind{true, false, true, false};
    case 'b':
      return FrameKind{false, false, true, true};
    case 'B':
      return FrameKind{true, false, true, true};
    default:
      return std::nullopt;
  }
}

LineKind parse_frame(std::string_view line, const FrameKind& kind, CanFrame& frame) noexcept {
  const std::size_t id_digits = kind.extended ? 8 : 3;
  if (line.size() < 1 + id_digits + 1) return LineKind::malformed;
  std::uint32_t id = 0;
  if (!parse_hex(line.substr(1, id_digits), id)) return LineKind::malformed;
  if (id > (kind.extended ? kMaxExtendedId : kMaxStandardId)) return LineKind::malformed;
  const int dlc = hex_value(line[1 + id_digits]);
  if (dlc < 0 || (!kind.fd && dlc > 8)) return LineKind::malformed;
  const std::size_t length = dlc_to_length(static_cast<std::uint8_t>(dlc), kind.fd);
  const std::size_t data_digits = kind.remote ? 0 : 2 * length;
  const std::string_view rest = line.substr(1 + id_digits + 1);
  if (rest.size() != data_digits && rest.size() != data_digits + 4) return LineKind::malformed;

  CanFrame out;
  out.id = id;
  out.length = static_cast<std::uint8_t>(length);
  out.flags =
      static_cast<std::uint8_t>((kind.extended ? kExtended : 0) | (kind.remote ? kRemote : 0) |
                                (kind.fd ? kFd : 0) | (kind.brs ? kBrs : 0));
  for (std::size_t i = 0; i < data_digits / 2; ++i) {
    std::uint32_t byte = 0;
    if (!parse_hex(rest.substr(2 * i, 2), byte)) return LineKind::malformed;
    out.data[i] = static_cast<std::uint8_t>(byte);
  }
  std::uint32_t timestamp = 0;  // Z1 mode: milliseconds, ignored
  if (!parse_hex(rest.substr(data_digits), timestamp)) return LineKind::malformed;
  frame = out;
  return LineKind::frame;
}

bool is_response(std::string_view line) noexcept {
  std::uint32_t flags = 0;
  switch (line[0]) {
    case 'V':
    case 'v':
    case 'N':
      return line.size() > 1;
    case 'F':
      return line.size() == 3 && parse_hex(line.substr(1), flags);
    default:
      return false;
  }
}

char* write_hex(char* out, std::uint32_t value, std::size_t digits) noexcept {
  for (std::size_t i = digits; i-- > 0;) {
    out[i] = kHexDigits[value & 0xF];
    value >>= 4;
  }
  return out + digits;
}

}  // namespace

LineKind parse_line(std::string_view line, CanFrame& frame) noexcept {
  if (line.empty()) return LineKind::ok;
  if (const std::optional<FrameKind> kind = frame_kind(line[0])) {
    return parse_frame(line, *kind, frame);
  }
  if (line == "z" || line == "Z") return LineKind::transmit_ack;
  if (is_response(line)) return LineKind::response;
  if (kCommandLetters.find(line[0]) != std::string_view::npos) return LineKind::command;
  return LineKind::malformed;
}

std::size_t format_frame(const CanFrame& frame, std::span<char> out) noexcept {
  if (!is_valid(frame) || frame.error()) return 0;
  const std::size_t id_digits = frame.extended() ? 8 : 3;
  const std::size_t data_bytes = frame.remote() ? 0 : frame.length;
  const std::size_t size = 1 + id_digits + 1 + 2 * data_bytes + 1;
  if (out.size() < size) return 0;

  char kind = frame.fd() ? (frame.brs() ? 'b' : 'd') : (frame.remote() ? 'r' : 't');
  if (frame.extended()) kind = static_cast<char>(kind - 'a' + 'A');
  char* p = out.data();
  *p++ = kind;
  p = write_hex(p, frame.id, id_digits);
  *p++ = kHexDigits[frame.fd() ? length_to_dlc(frame.length) : frame.length];
  for (std::size_t i = 0; i < data_bytes; ++i) p = write_hex(p, frame.data[i], 2);
  *p = kOkByte;
  return size;
}

std::optional<char> bitrate_digit(std::uint32_t bitrate) noexcept {
  switch (bitrate) {
    case 10'000:
      return '0';
    case 20'000:
      return '1';
    case 50'000:
      return '2';
    case 100'000:
      return '3';
    case 125'000:
      return '4';
    case 250'000:
      return '5';
    case 500'000:
      return '6';
    case 750'000:
    case 800'000:
      return '7';
    case 1'000'000:
      return '8';
    default:
      return std::nullopt;
  }
}

LineAssembler::Event LineAssembler::push(char byte) noexcept {
  if (complete_) {
    size_ = 0;
    complete_ = false;
  }
  switch (byte) {
    case '\n':
      return Event::none;
    case kBellByte:
      size_ = 0;
      discarding_ = false;
      complete_ = true;
      return Event::bell;
    case kOkByte:
      if (discarding_) {
        discarding_ = false;
        size_ = 0;
        return Event::none;
      }
      complete_ = true;
      return Event::line;
    default:
      break;
  }
  if (discarding_) return Event::none;
  if (size_ == buffer_.size()) {
    discarding_ = true;
    size_ = 0;
    return Event::overlong;
  }
  buffer_[size_++] = byte;
  return Event::none;
}

}  // namespace hil::io::can::slcan
