#include "io/can/e2e/crc.hpp"

#include <boost/crc.hpp>

namespace hil::io::can::e2e {
namespace {

/// Boost.CRC's MSB-first (unreflected) engine of `Poly`, started from `reg`, without a final
/// XOR: the AUTOSAR routines add their own, so that a CRC can be continued.
template <typename Reg, Reg Poly>
Reg run(Reg reg, std::span<const std::uint8_t> data) noexcept {
  boost::crc_optimal<sizeof(Reg) * 8, Poly, 0, 0, false, false> crc(reg);
  crc.process_bytes(data.data(), data.size());
  return crc.checksum();
}

}  // namespace

std::uint8_t crc8_sae_j1850(std::span<const std::uint8_t> data, std::uint8_t start_value,
                            bool is_first_call) noexcept {
  // Not the first call: the start value is the previous result, its final XOR undone.
  const std::uint8_t reg =
      is_first_call ? kCrc8InitialValue : static_cast<std::uint8_t>(start_value ^ kCrc8XorValue);
  return static_cast<std::uint8_t>(run<std::uint8_t, 0x1D>(reg, data) ^ kCrc8XorValue);
}

std::uint8_t crc8_h2f(std::span<const std::uint8_t> data, std::uint8_t start_value,
                      bool is_first_call) noexcept {
  const std::uint8_t reg = is_first_call
                               ? kCrc8H2FInitialValue
                               : static_cast<std::uint8_t>(start_value ^ kCrc8H2FXorValue);
  return static_cast<std::uint8_t>(run<std::uint8_t, 0x2F>(reg, data) ^ kCrc8H2FXorValue);
}

std::uint16_t crc16_ccitt_false(std::span<const std::uint8_t> data, std::uint16_t start_value,
                                bool is_first_call) noexcept {
  const std::uint16_t reg =
      is_first_call ? kCrc16InitialValue : static_cast<std::uint16_t>(start_value ^ kCrc16XorValue);
  return static_cast<std::uint16_t>(run<std::uint16_t, 0x1021>(reg, data) ^ kCrc16XorValue);
}

}  // namespace hil::io::can::e2e
