#include "io/can/trace/frame_filter.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace hil::io::can {
namespace {

constexpr std::uint32_t kEffFlag = 0x8000'0000U;
constexpr std::uint32_t kErrFlag = 0x2000'0000U;
constexpr std::size_t kMaxHexDigits = 8;

/// 1..8 hex digits, the whole of `text`.
bool parse_hex(std::string_view text, std::uint32_t& value) noexcept {
  if (text.empty() || text.size() > kMaxHexDigits) return false;
  value = 0;
  for (const char c : text) {
    std::uint32_t d = 0;
    if (c >= '0' && c <= '9') {
      d = static_cast<std::uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      d = static_cast<std::uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      d = static_cast<std::uint32_t>(c - 'A' + 10);
    } else {
      return false;
    }
    value = (value << 4U) | d;
  }
  return true;
}

[[noreturn]] void fail(std::string_view text, std::size_t column, std::string_view item,
                       std::string_view why) {
  throw std::invalid_argument(
      fmt::format("id filter '{}', item '{}' at column {}: {}; expected comma-separated "
                  "ID:MASK or ID~MASK in hex (e.g. 123:7FF,18FF0000:1FFF0000), or j to join",
                  text, item, column, why));
}

}  // namespace

FrameFilter FrameFilter::parse(std::string_view text) {
  FrameFilter filter;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view item = text.substr(begin, comma - begin);
    const std::size_t column = begin + 1;
    begin = comma + 1;
    if (item == "j" || item == "J") {
      filter.joined_ = true;
      continue;
    }
    const std::size_t split = item.find_first_of(":~");
    if (split == std::string_view::npos) fail(text, column, item, "no ':' or '~'");
    Item parsed;
    const std::string_view id_text = item.substr(0, split);
    if (!parse_hex(id_text, parsed.id)) fail(text, column, item, "the ID is not 1-8 hex digits");
    if (!parse_hex(item.substr(split + 1), parsed.mask)) {
      fail(text, column + split + 1, item, "the MASK is not 1-8 hex digits");
    }
    if (id_text.size() == kMaxHexDigits) parsed.id |= kEffFlag;
    parsed.mask &= ~kErrFlag;
    parsed.inverted = item[split] == '~';
    filter.items_.push_back(parsed);
  }
  if (filter.items_.empty()) fail(text, 1, text, "no ID:MASK item");
  return filter;
}

bool FrameFilter::passes(const CanFrame& frame) const noexcept {
  if (items_.empty()) return true;
  if (frame.error()) return false;
  const std::uint32_t can_id = linux_can_id(frame);
  for (const Item& item : items_) {
    const bool match = ((can_id ^ item.id) & item.mask) == 0;
    const bool pass = match != item.inverted;
    if (joined_ && !pass) return false;
    if (!joined_ && pass) return true;
  }
  return joined_;
}

}  // namespace hil::io::can
