#include "io/can/mapping/e2e.hpp"

#include <boost/crc.hpp>

namespace hil::io::can {

std::uint8_t crc8_j1850(std::span<const std::uint8_t> payload, std::size_t skip,
                        std::optional<std::uint8_t> data_id) noexcept {
  // SAE J1850 CRC-8: width 8, poly 0x1D, init 0xFF, xorout 0xFF, refin/refout false
  boost::crc_optimal<8, 0x1D, 0xFF, 0xFF, false, false> crc;
  if (data_id) crc.process_byte(*data_id);
  for (std::size_t i = 0; i < payload.size(); ++i) {
    if (i != skip) crc.process_byte(payload[i]);
  }
  return crc.checksum();
}

CounterCheck check_counter(std::optional<std::uint32_t> previous, std::uint32_t now,
                           std::uint32_t bits) noexcept {
  if (!previous) return CounterCheck::first;
  const std::uint64_t modulus = std::uint64_t{1} << bits;
  const std::uint64_t step = (now + modulus - *previous) % modulus;
  if (step == 0) return CounterCheck::repeat;
  return step == 1 ? CounterCheck::next : CounterCheck::jump;
}

}  // namespace hil::io::can
