#include "io/record/mcap/crc32.hpp"

#include <zlib.h>

namespace hil::io::record {

std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::uint8_t> bytes) noexcept {
  // crc32_z takes a size_t length (zlib ≥ 1.2.9): no 4 GiB split needed.
  return static_cast<std::uint32_t>(crc32_z(crc, bytes.data(), bytes.size()));
}

}  // namespace hil::io::record
