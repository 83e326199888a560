#pragma once
// Where a DBC signal's bits are in a frame payload, precomputed once so that reading and
// writing a raw value is a short loop over the 1–9 bytes it touches.
//
// Intel '@1': the start bit is the LSB; bit b is bit b%8 of byte b/8 and the signal runs up
// through more significant bits into the following bytes.
// Motorola '@0': the start bit is the MSB in the DBC "sawtooth" numbering (bit b = bit b%8 of
// byte b/8, 7 = the byte's MSB); the signal runs down through less significant bits, then on
// from bit 7 of the next byte. Either way the raw value's bits, from its LSB up, fill a run
// of bytes starting at the byte of its LSB: rightwards (step +1) for Intel, leftwards
// (step -1) for Motorola. Thread-safety: values and pure functions.

#include <cstddef>
#include <cstdint>
#include <span>

#include "io/can/dbc/dbc_model.hpp"

namespace hil::io::can::dbc {

struct BitLayout {
  std::uint32_t lsb_byte = 0;    ///< byte holding the raw value's least significant bit
  std::uint32_t lsb_shift = 0;   ///< that bit's position in its byte (0 = the byte's LSB)
  std::uint32_t byte_count = 0;  ///< bytes the signal touches, 1–9
  std::int32_t step = 1;         ///< +1: more significant bits in the next byte; -1: previous
  std::uint64_t mask = 0;        ///< `length` low bits set
  /// Payload bytes needed to hold the signal: 1 + the highest byte index it touches.
  std::uint32_t bytes_needed = 0;
  /// First and last bit in the DBC's numbering: Intel LSB..MSB, Motorola MSB..LSB (sawtooth).
  std::uint32_t first_bit = 0;
  std::uint32_t last_bit = 0;
};

/// The layout of a signal of `length` (1–64) bits starting at `start_bit` (0–511).
[[nodiscard]] BitLayout compute_layout(std::uint32_t start_bit, std::uint32_t length,
                                       ByteOrder order) noexcept;

/// The raw bits of the signal (not sign-extended). `payload` must hold bytes_needed bytes.
[[nodiscard]] inline std::uint64_t read_raw(const BitLayout& l,
                                            std::span<const std::uint8_t> payload) noexcept {
  const std::uint8_t* p = payload.data() + l.lsb_byte;
  std::uint64_t value = *p >> l.lsb_shift;
  for (std::uint32_t i = 1; i < l.byte_count; ++i) {
    p += l.step;
    value |= std::uint64_t{*p} << (8 * i - l.lsb_shift);  // < 64: byte_count 9 needs shift ≥ 1
  }
  return value & l.mask;
}

/// Writes the low bits of `raw` into the signal's bits, leaving the other bits alone.
inline void write_raw(const BitLayout& l, std::uint64_t raw,
                      std::span<std::uint8_t> payload) noexcept {
  raw &= l.mask;
  std::uint8_t* p = payload.data() + l.lsb_byte;
  auto keep = static_cast<std::uint8_t>(~(l.mask << l.lsb_shift));
  *p = static_cast<std::uint8_t>((*p & keep) | static_cast<std::uint8_t>(raw << l.lsb_shift));
  for (std::uint32_t i = 1; i < l.byte_count; ++i) {
    p += l.step;
    const std::uint32_t shift = 8 * i - l.lsb_shift;
    keep = static_cast<std::uint8_t>(~(l.mask >> shift));
    *p = static_cast<std::uint8_t>((*p & keep) | static_cast<std::uint8_t>(raw >> shift));
  }
}

}  // namespace hil::io::can::dbc
