#pragma once
// CRC-32 (ISO-HDLC, the one of zlib, PNG and MCAP) through zlib: incremental, any length.
// Thread-safety: pure functions.

#include <cstdint>
#include <span>

namespace hil::io::record {

/// CRC of `bytes` continued from `crc` (0 to start). crc32_update(crc32_update(0, a), b) is
/// the CRC of a followed by b.
[[nodiscard]] std::uint32_t crc32_update(std::uint32_t crc,
                                         std::span<const std::uint8_t> bytes) noexcept;

}  // namespace hil::io::record
