#include "io/can/trace/blf_writer.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <ctime>
#include <stdexcept>

#include "io/can/trace/blf_format.hpp"

namespace hil::io::can {
namespace {

using namespace blf;  // the format's names, shared with blf_reader.cpp

constexpr std::uint8_t kBinLogMajor = 4;  // the version numbers python-can and CANoe 8+ write
constexpr std::uint8_t kBinLogMinor = 1;
constexpr std::int64_t kNanosPerSecond = 1'000'000'000;
constexpr std::int64_t kNanosPerMilli = 1'000'000;

template <typename T>
void put(std::vector<std::uint8_t>& out, T value) {  // little endian, as BLF is
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i)));
  }
}

void pad_to(std::vector<std::uint8_t>& out, std::size_t size) { out.resize(size, 0); }

/// Windows SYSTEMTIME of a UTC epoch time, in local time as Vector's tools write it.
void put_system_time(std::vector<std::uint8_t>& out, std::int64_t epoch_ns) {
  const auto seconds = static_cast<std::time_t>(epoch_ns / kNanosPerSecond);
  std::tm t{};
  if (epoch_ns <= 0 || localtime_r(&seconds, &t) == nullptr) {
    out.resize(out.size() + 16, 0);
    return;
  }
  for (const int field :
       {t.tm_year + 1900, t.tm_mon + 1, t.tm_wday, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec,
        static_cast<int>(epoch_ns % kNanosPerSecond / kNanosPerMilli)}) {
    put(out, static_cast<std::uint16_t>(field));
  }
}

}  // namespace

BlfWriter::BlfWriter(std::ostream& out, std::int64_t start_epoch_ns)
    : out_(out), start_epoch_ns_(start_epoch_ns) {
  const std::vector<std::uint8_t> placeholder(kFileHeaderSize, 0);
  out_.write(reinterpret_cast<const char*>(placeholder.data()),
             static_cast<std::streamsize>(placeholder.size()));
  file_size_ = kFileHeaderSize;
  uncompressed_size_ = kFileHeaderSize;
}

void BlfWriter::add(std::int64_t time_ns, std::uint16_t channel, const CanFrame& frame,
                    bool transmitted) {
  if (!is_valid(frame)) throw std::invalid_argument("BlfWriter::add: invalid frame");
  if (channel == 0) throw std::invalid_argument("BlfWriter::add: channels count from 1");
  time_ns = std::max<std::int64_t>(time_ns, 0);
  last_time_ns_ = std::max(last_time_ns_, time_ns);
  const std::uint32_t raw_id = frame.id | (frame.extended() ? kExtendedIdBit : 0U);
  const auto direction = static_cast<std::uint8_t>(transmitted ? kTransmittedFlag : 0);
  std::vector<std::uint8_t> body;
  std::uint32_t type = kCanMessage;
  if (frame.error()) {
    type = kCanErrorExt;
    put(body, channel);
    pad_to(body, kCanErrorExtBody);
  } else if (frame.fd()) {
    type = kCanFdMessage;
    put(body, channel);
    body.push_back(direction);
    body.push_back(length_to_dlc(frame.length));
    put(body, raw_id);
    put<std::uint32_t>(body, 0);  // frame length (ns on the bus): not known
    body.push_back(0);            // bit count: not known
    body.push_back(static_cast<std::uint8_t>(kFdEdl | (frame.brs() ? kFdBrs : 0) |
                                             (frame.esi() ? kFdEsi : 0)));
    body.push_back(frame.length);
    pad_to(body, kCanFdMessageBody - 64);
    body.insert(body.end(), frame.data.begin(), frame.data.end());
  } else {
    put(body, channel);
    body.push_back(static_cast<std::uint8_t>(direction | (frame.remote() ? kRemoteFlag : 0)));
    body.push_back(frame.length);
    put(body, raw_id);
    const std::size_t payload = frame.remote() ? 0 : frame.length;
    body.insert(body.end(), frame.data.begin(),
                frame.data.begin() + static_cast<std::ptrdiff_t>(payload));
    pad_to(body, kCanMessageBody);
  }
  const auto object_size = static_cast<std::uint32_t>(kTimedHeader + body.size());
  pending_.insert(pending_.end(), kObjectSignature.begin(), kObjectSignature.end());
  put<std::uint16_t>(pending_, kTimedHeader);
  put<std::uint16_t>(pending_, 1);  // header version
  put(pending_, object_size);
  put(pending_, type);
  put(pending_, kFlagNanoseconds);
  put<std::uint16_t>(pending_, 0);  // client index
  put<std::uint16_t>(pending_, 0);  // object version
  put(pending_, static_cast<std::uint64_t>(time_ns));
  pending_.insert(pending_.end(), body.begin(), body.end());  // every body is 4-byte aligned
  ++objects_;
  if (pending_.size() >= kContainerBytes) flush_container(kContainerBytes);
}

void BlfWriter::flush_container(std::size_t bytes) {
  uLongf size = compressBound(bytes);
  compressed_.resize(size);
  if (compress2(compressed_.data(), &size, pending_.data(), bytes, Z_DEFAULT_COMPRESSION) != Z_OK) {
    throw std::runtime_error("BLF: zlib could not compress a container");
  }
  std::vector<std::uint8_t> header;
  const auto object_size = static_cast<std::uint32_t>(kBaseHeader + kContainerHeader + size);
  header.insert(header.end(), kObjectSignature.begin(), kObjectSignature.end());
  put<std::uint16_t>(header, kBaseHeader);
  put<std::uint16_t>(header, 1);
  put(header, object_size);
  put(header, kLogContainer);
  put(header, kZlib);
  pad_to(header, kBaseHeader + 8);
  put(header, static_cast<std::uint32_t>(bytes));
  pad_to(header, kBaseHeader + kContainerHeader);
  out_.write(reinterpret_cast<const char*>(header.data()),
             static_cast<std::streamsize>(header.size()));
  out_.write(reinterpret_cast<const char*>(compressed_.data()), static_cast<std::streamsize>(size));
  const std::array<char, 4> padding{};
  out_.write(padding.data(), object_size % 4);
  file_size_ += object_size + object_size % 4;
  uncompressed_size_ += kBaseHeader + kContainerHeader + bytes;
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(bytes));
}

void BlfWriter::finish() {
  if (!pending_.empty()) flush_container(pending_.size());
  std::vector<std::uint8_t> header(kFileSignature.begin(), kFileSignature.end());
  put<std::uint32_t>(header, kFileHeaderSize);
  header.push_back(0);  // application id: other
  header.insert(header.end(), {0, 0, 0, kBinLogMajor, kBinLogMinor, 0, 0});
  put(header, file_size_);
  put(header, uncompressed_size_);
  put(header, objects_);
  put<std::uint32_t>(header, 0);  // objects read
  put_system_time(header, start_epoch_ns_);
  put_system_time(header, start_epoch_ns_ + last_time_ns_);
  pad_to(header, kFileHeaderSize);
  out_.seekp(0);
  out_.write(reinterpret_cast<const char*>(header.data()),
             static_cast<std::streamsize>(header.size()));
  out_.flush();
  if (!out_) throw std::runtime_error("BLF: the file could not be written");
}

}  // namespace hil::io::can
