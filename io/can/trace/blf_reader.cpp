#include "io/can/trace/blf_reader.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string_view>

#include "io/can/trace/asc_reader.hpp"
#include "io/can/trace/blf_format.hpp"

namespace hil::io::can {
namespace {

using namespace blf;  // the format's names, shared with blf_writer.cpp

constexpr std::size_t kMaxFileHeader = 4096;
constexpr std::size_t kMaxObject = 64U << 20U;  // object and inflated container limit
constexpr std::size_t kPaddingSearch = 8;       // pad bytes tolerated between objects

template <typename T>
T load(const std::uint8_t* at) noexcept {  // little endian, as BLF is
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(T{at[i]} << (8 * i));
  return value;
}

bool is_object_signature(const std::uint8_t* at) noexcept {
  return std::memcmp(at, kObjectSignature.data(), kObjectSignature.size()) == 0;
}

}  // namespace

BlfReader::BlfReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {
  std::array<std::uint8_t, kFileHeaderFixed> header{};
  in_.read(reinterpret_cast<char*>(header.data()), header.size());
  if (static_cast<std::size_t>(in_.gcount()) < 4 ||
      std::memcmp(header.data(), kFileSignature.data(), 4) != 0) {
    throw std::runtime_error(
        fmt::format("{}: not a BLF file (it does not start with \"LOGG\")", name_));
  }
  const auto header_size = load<std::uint32_t>(header.data() + 4);
  if (static_cast<std::size_t>(in_.gcount()) < header.size() || header_size < kFileHeaderFixed ||
      header_size > kMaxFileHeader) {
    throw std::runtime_error(fmt::format(
        "{}: not a BLF file (its header is {} bytes; expected {} to {})", name_,
        static_cast<std::size_t>(in_.gcount()) < header.size() ? in_.gcount() : header_size,
        kFileHeaderFixed, kMaxFileHeader));
  }
  in_.ignore(static_cast<std::streamsize>(header_size - kFileHeaderFixed));
  offset_ = header_size;
}

bool BlfReader::fail(std::string_view what) {
  bad_ = fmt::format("{}: byte {}: {}", name_, object_offset_, what);
  ++bad_objects_;
  return true;
}

BlfReader::Status BlfReader::next() {
  for (;;) {
    if (pos_ < pending_.size()) {
      switch (parse_pending()) {
        case Parsed::frame:
          ++frames_;
          return Status::frame;
        case Parsed::bad:
          return Status::bad_object;
        case Parsed::other:
          continue;
        case Parsed::need_more:
          break;
      }
    }
    bool bad = false;
    if (read_top_level(bad)) {
      if (bad) return Status::bad_object;
      continue;
    }
    // The end: what is left must be padding.
    const bool leftover = std::any_of(pending_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                      pending_.end(), [](std::uint8_t b) { return b != 0; });
    pending_.clear();
    pos_ = 0;
    if (leftover) {
      fail("the file ends inside an object (the rest of the last container's data is missing)");
      return Status::bad_object;
    }
    return Status::end;
  }
}

bool BlfReader::read_top_level(bool& bad) {
  object_offset_ = offset_;
  std::array<std::uint8_t, kBaseHeader> base{};
  in_.read(reinterpret_cast<char*>(base.data()), base.size());
  const auto got = static_cast<std::size_t>(in_.gcount());
  if (got == 0) return false;
  offset_ += got;
  if (got < base.size()) return bad = fail("the file ends inside an object header");
  if (!is_object_signature(base.data())) {
    // Find the next "LOBJ" in the stream: keep a 4-byte window.
    std::size_t skipped = 0;
    std::array<char, 4> window{};
    std::memcpy(window.data(), base.data() + base.size() - 4, 4);
    int c = 0;
    while (std::memcmp(window.data(), "LOBJ", 4) != 0 && (c = in_.get()) != EOF) {
      std::memmove(window.data(), window.data() + 1, 3);
      window[3] = static_cast<char>(c);
      ++skipped;
    }
    const bool found = std::memcmp(window.data(), "LOBJ", 4) == 0;
    offset_ += skipped;
    if (found) {  // put the signature back in front of the next read
      for (int i = 0; i < 4; ++i) in_.unget();
      offset_ -= 4;
      in_.clear();
    }
    return bad = fail(fmt::format("expected an object (\"LOBJ\"); skipped {} bytes to {}",
                                  base.size() - 4 + skipped + (found ? 0 : 4),
                                  found ? "the next object" : "the end of the file"));
  }
  const auto header_size = load<std::uint16_t>(base.data() + 4);
  const auto object_size = load<std::uint32_t>(base.data() + 8);
  const auto type = load<std::uint32_t>(base.data() + 12);
  if (object_size < kBaseHeader || object_size < header_size || object_size > kMaxObject) {
    return bad = fail(fmt::format("object size {} (header {} bytes) is no object's", object_size,
                                  header_size));
  }
  std::vector<std::uint8_t> body(object_size - kBaseHeader);
  in_.read(reinterpret_cast<char*>(body.data()), static_cast<std::streamsize>(body.size()));
  offset_ += static_cast<std::size_t>(in_.gcount());
  if (static_cast<std::size_t>(in_.gcount()) < body.size()) {
    return bad = fail(fmt::format("the file ends inside a {}-byte object", object_size));
  }
  const std::size_t padding = object_size % 4;
  in_.ignore(static_cast<std::streamsize>(padding));
  offset_ += static_cast<std::size_t>(in_.gcount());
  in_.clear(in_.rdstate() & ~std::ios::failbit);

  if (type != kLogContainer) {
    // An object outside any container: read in line when no container object is open.
    if (pos_ < pending_.size()) {
      ++other_objects_;
      return true;
    }
    pending_.assign(base.begin(), base.end());
    pending_.insert(pending_.end(), body.begin(), body.end());
    pos_ = 0;
    return true;
  }
  ++containers_;
  const std::size_t data_at = std::max<std::size_t>(header_size, kBaseHeader) - kBaseHeader;
  if (body.size() < data_at + kContainerHeader) {
    return bad = fail(fmt::format("a {}-byte container has no container header", object_size));
  }
  const auto method = load<std::uint16_t>(body.data() + data_at);
  const auto inflated_size = load<std::uint32_t>(body.data() + data_at + 8);
  const std::uint8_t* data = body.data() + data_at + kContainerHeader;
  const std::size_t data_size = body.size() - data_at - kContainerHeader;
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(pos_));
  pos_ = 0;
  if (method == 0) {
    pending_.insert(pending_.end(), data, data + data_size);
    return true;
  }
  if (method != 2) {
    pending_.clear();  // the object stream cannot go on across a container we cannot read
    return bad = fail(
               fmt::format("container compression {} is neither 0 (none) nor 2 (zlib)", method));
  }
  if (inflated_size > kMaxObject) {
    pending_.clear();
    return bad = fail(fmt::format("container of {} bytes inflated (at most {})", inflated_size,
                                  kMaxObject));
  }
  const std::size_t kept = pending_.size();
  pending_.resize(kept + inflated_size);
  uLongf out_size = inflated_size;
  uLong in_size = data_size;
  const int status = uncompress2(pending_.data() + kept, &out_size, data, &in_size);
  if (status != Z_OK || out_size != inflated_size) {
    pending_.clear();
    return bad = fail(fmt::format("container does not inflate to its {} bytes (zlib: {})",
                                  inflated_size, status == Z_OK ? "fewer bytes" : zError(status)));
  }
  return true;
}

std::size_t BlfReader::skip_to_next_object() {
  const auto found = std::search(pending_.begin() + static_cast<std::ptrdiff_t>(pos_) + 1,
                                 pending_.end(), kObjectSignature.begin(), kObjectSignature.end());
  const std::size_t skipped = static_cast<std::size_t>(found - pending_.begin()) - pos_;
  pos_ += skipped;
  return skipped;
}

BlfReader::Parsed BlfReader::parse_pending() {
  const std::size_t left = pending_.size() - pos_;
  const std::uint8_t* at = pending_.data() + pos_;
  // Pad bytes may sit between objects.
  std::size_t skip = 0;
  while (skip < kPaddingSearch && skip + 4 <= left && !is_object_signature(at + skip)) ++skip;
  if (skip + kBaseHeader > left) return Parsed::need_more;
  if (!is_object_signature(at + skip)) {
    fail(fmt::format("container data: expected an object (\"LOBJ\"); skipped {} bytes",
                     skip_to_next_object()));
    return Parsed::bad;
  }
  pos_ += skip;
  at += skip;
  const auto header_size = load<std::uint16_t>(at + 4);
  const auto version = load<std::uint16_t>(at + 6);
  const auto object_size = load<std::uint32_t>(at + 8);
  const auto type = load<std::uint32_t>(at + 12);
  if (header_size < kBaseHeader || object_size < header_size || object_size > kMaxObject) {
    fail(
        fmt::format("container data: object size {} (header {} bytes) is no object's; skipped "
                    "{} bytes to the next object",
                    object_size, header_size, skip_to_next_object()));
    return Parsed::bad;
  }
  if (object_size > pending_.size() - pos_) return Parsed::need_more;
  pos_ += object_size;
  if (type == kLogContainer || header_size < kTimedHeader || (version != 1 && version != 2)) {
    ++other_objects_;
    return Parsed::other;
  }
  const auto flags = load<std::uint32_t>(at + 16);
  const auto stamp = load<std::uint64_t>(at + 24);
  constexpr std::uint64_t kTicksLimit = std::numeric_limits<std::int64_t>::max() / 10'000;
  const bool ten_us = flags == kFlagTenMicroseconds;
  if (stamp > (ten_us ? kTicksLimit : std::numeric_limits<std::int64_t>::max())) {
    fail(fmt::format("timestamp {} out of range", stamp));
    return Parsed::bad;
  }
  const auto time_ns = static_cast<std::int64_t>(ten_us ? stamp * 10'000 : stamp);
  return decode_object(type, at + header_size, object_size - header_size, time_ns);
}

BlfReader::Parsed BlfReader::decode_object(std::uint32_t type, const std::uint8_t* body,
                                           std::size_t size, std::int64_t time_ns) {
  const auto too_short = [&](std::size_t needed) {
    fail(fmt::format("container data: object type {} has {} bytes; expected at least {}", type,
                     size, needed));
    return Parsed::bad;
  };
  CanFrame f;
  std::uint32_t channel = 0;
  std::uint32_t raw_id = 0;
  switch (type) {
    case kCanMessage:
    case kCanMessage2: {
      if (size < kCanMessageBody) return too_short(kCanMessageBody);
      channel = load<std::uint16_t>(body);
      raw_id = load<std::uint32_t>(body + 4);
      f.length = static_cast<std::uint8_t>(dlc_to_length(body[3], false));
      if ((body[2] & kRemoteFlag) != 0) {
        f.flags |= kRemote;
      } else {
        std::copy_n(body + 8, f.length, f.data.begin());
      }
      break;
    }
    case kCanFdMessage: {
      if (size < kCanFdMessageBody) return too_short(kCanFdMessageBody);
      channel = load<std::uint16_t>(body);
      raw_id = load<std::uint32_t>(body + 4);
      const std::uint8_t fd_flags = body[13];
      const bool fd = (fd_flags & kFdEdl) != 0;
      f.length = static_cast<std::uint8_t>(dlc_to_length(body[3], fd));
      if (fd) {
        f.flags |= kFd;
        if ((fd_flags & kFdBrs) != 0) f.flags |= kBrs;
        if ((fd_flags & kFdEsi) != 0) f.flags |= kEsi;
      } else if ((body[2] & kRemoteFlag) != 0) {
        f.flags |= kRemote;
      }
      if (!f.remote())
        std::copy_n(body + 20, std::min<std::size_t>(f.length, body[14]), f.data.begin());
      break;
    }
    case kCanFdMessage64: {
      if (size < kCanFdMessage64Fixed) return too_short(kCanFdMessage64Fixed);
      channel = body[0];
      raw_id = load<std::uint32_t>(body + 4);
      const auto fd_flags = load<std::uint32_t>(body + 12);
      const bool fd = (fd_flags & kFd64Edl) != 0;
      f.length = static_cast<std::uint8_t>(dlc_to_length(body[1], fd));
      if (fd) {
        f.flags |= kFd;
        if ((fd_flags & kFd64Brs) != 0) f.flags |= kBrs;
        if ((fd_flags & kFd64Esi) != 0) f.flags |= kEsi;
      } else if ((fd_flags & kFd64Remote) != 0) {
        f.flags |= kRemote;
      }
      const auto valid = std::min<std::size_t>({f.length, body[2], size - kCanFdMessage64Fixed});
      if (!f.remote()) std::copy_n(body + kCanFdMessage64Fixed, valid, f.data.begin());
      break;
    }
    case kCanError:
    case kCanErrorExt:
    case kCanFdError64: {
      if (size < 2) return too_short(2);
      channel = type == kCanFdError64 ? body[0] : load<std::uint16_t>(body);
      f.flags = kError;  // what an ASC ErrorFrame becomes: no details
      f.id = kAscErrorFrameClass;
      f.length = kMaxClassicLength;
      ++error_frames_;
      frame_ = {.time_ns = time_ns, .channel = channel, .frame = f};
      return Parsed::frame;
    }
    default:
      ++other_objects_;
      return Parsed::other;
  }
  f.id = raw_id & ~kExtendedIdBit;
  if ((raw_id & kExtendedIdBit) != 0) f.flags |= kExtended;
  if (!is_valid(f)) {
    fail(fmt::format("container data: frame id 0x{:X} does not fit {} bits", f.id,
                     f.extended() ? 29 : 11));
    return Parsed::bad;
  }
  frame_ = {.time_ns = time_ns, .channel = channel, .frame = f};
  return Parsed::frame;
}

}  // namespace hil::io::can
