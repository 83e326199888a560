#pragma once
// BLF files built byte by byte for the BLF tests (blf_reader_test.cpp): objects with a v1
// header, the frame bodies python-can and vector_blf read, log containers stored or
// zlib-compressed, and the file header. The layout is io/can/trace/blf_format.hpp's, written
// out here independently so the tests check it.

#include <zlib.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hil::io::can::blf_bytes {

using Bytes = std::vector<std::uint8_t>;

inline constexpr std::uint32_t kNanoseconds = 2;
inline constexpr std::uint32_t kTenMicroseconds = 1;
inline constexpr std::size_t kFileHeader = 144;

template <typename T>
inline void put(Bytes& out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i)));
  }
}

inline void put_bytes(Bytes& out, const Bytes& bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

/// An object with a v1 header: "LOBJ", 32, 1, size, type; flags, 0, 0, timestamp; body; pad.
inline Bytes object(std::uint32_t type, const Bytes& body, std::uint64_t stamp,
                    std::uint32_t unit = kNanoseconds) {
  Bytes out{'L', 'O', 'B', 'J'};
  put<std::uint16_t>(out, 32);
  put<std::uint16_t>(out, 1);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(32 + body.size()));
  put<std::uint32_t>(out, type);
  put<std::uint32_t>(out, unit);
  put<std::uint16_t>(out, 0);
  put<std::uint16_t>(out, 0);
  put<std::uint64_t>(out, stamp);
  put_bytes(out, body);
  out.resize(out.size() + body.size() % 4);  // the padding python-can writes
  return out;
}

/// CAN_MESSAGE (1) or CAN_MESSAGE2 (86) body: channel, flags, dlc, id, 8 data bytes.
inline Bytes classic(std::uint16_t channel, std::uint32_t raw_id, Bytes data,
                     std::uint8_t flags = 0, std::uint8_t dlc = 0xFF) {
  Bytes out;
  put(out, channel);
  out.push_back(flags);
  out.push_back(dlc == 0xFF ? static_cast<std::uint8_t>(data.size()) : dlc);
  put(out, raw_id);
  data.resize(8);
  put_bytes(out, data);
  return out;
}

/// CAN_FD_MESSAGE (100) body.
inline Bytes fd(std::uint16_t channel, std::uint32_t raw_id, std::uint8_t dlc, const Bytes& data,
                std::uint8_t fd_flags) {
  Bytes out;
  put(out, channel);
  out.push_back(0);
  out.push_back(dlc);
  put(out, raw_id);
  put<std::uint32_t>(out, 0);  // frame length
  out.push_back(0);            // bit count
  out.push_back(fd_flags);
  out.push_back(static_cast<std::uint8_t>(data.size()));
  out.resize(out.size() + 5);
  Bytes payload = data;
  payload.resize(64);
  put_bytes(out, payload);
  return out;
}

/// CAN_FD_MESSAGE_64 (101) body: 40 fixed bytes, then the data.
inline Bytes fd64(std::uint8_t channel, std::uint32_t raw_id, std::uint8_t dlc, const Bytes& data,
                  std::uint32_t flags) {
  Bytes out{channel, dlc, static_cast<std::uint8_t>(data.size()), 0};
  put(out, raw_id);
  put<std::uint32_t>(out, 0);  // frame length
  put(out, flags);
  out.resize(40);
  put_bytes(out, data);
  return out;
}

/// CAN_ERROR_EXT (73) body.
inline Bytes error_ext(std::uint16_t channel) {
  Bytes out;
  put(out, channel);
  out.resize(32);
  return out;
}

/// A LOG_CONTAINER holding `data`, zlib-compressed or stored, with its padding.
inline Bytes container(const Bytes& data, bool compress) {
  Bytes stored = data;
  if (compress) {
    uLongf size = compressBound(data.size());
    stored.resize(size);
    if (compress2(stored.data(), &size, data.data(), data.size(), 6) != Z_OK) {
      throw std::runtime_error("zlib could not compress a test container");
    }
    stored.resize(size);
  }
  Bytes out{'L', 'O', 'B', 'J'};
  const auto object_size = static_cast<std::uint32_t>(16 + 16 + stored.size());
  put<std::uint16_t>(out, 16);
  put<std::uint16_t>(out, 1);
  put(out, object_size);
  put<std::uint32_t>(out, 10);
  put<std::uint16_t>(out, compress ? 2 : 0);
  out.resize(out.size() + 6);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(data.size()));
  out.resize(out.size() + 4);
  put_bytes(out, stored);
  out.resize(out.size() + object_size % 4);
  return out;
}

inline std::string file(const std::vector<Bytes>& top_level) {
  Bytes out{'L', 'O', 'G', 'G'};
  put<std::uint32_t>(out, kFileHeader);
  out.resize(kFileHeader);
  for (const Bytes& o : top_level) put_bytes(out, o);
  return {out.begin(), out.end()};
}

}  // namespace hil::io::can::blf_bytes
