#include "io/can/dbc/dbc_layout.hpp"

namespace hil::io::can::dbc {

BitLayout compute_layout(std::uint32_t start_bit, std::uint32_t length, ByteOrder order) noexcept {
  BitLayout l;
  l.mask = length >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << length) - 1;
  if (order == ByteOrder::little_endian) {
    l.lsb_byte = start_bit / 8;
    l.lsb_shift = start_bit % 8;
    l.byte_count = (l.lsb_shift + length + 7) / 8;
    l.step = 1;
    l.bytes_needed = l.lsb_byte + l.byte_count;
    l.first_bit = start_bit;
    l.last_bit = start_bit + length - 1;
    return l;
  }
  // Motorola: number the bits MSB-first through the payload (byte 0 bit 7 = 0, byte 0 bit 0
  // = 7, byte 1 bit 7 = 8, ...); the signal then is the contiguous run [msb, lsb].
  const std::uint32_t msb = 8 * (start_bit / 8) + 7 - start_bit % 8;
  const std::uint32_t lsb = msb + length - 1;
  l.lsb_byte = lsb / 8;
  l.lsb_shift = 7 - lsb % 8;
  l.byte_count = l.lsb_byte - msb / 8 + 1;
  l.step = -1;
  l.bytes_needed = l.lsb_byte + 1;
  l.first_bit = start_bit;
  l.last_bit = 8 * (lsb / 8) + 7 - lsb % 8;
  return l;
}

}  // namespace hil::io::can::dbc
