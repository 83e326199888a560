#pragma once
// The simple end-to-end protection many ECUs use without an AUTOSAR profile: a CRC-8 SAE
// J1850 over the other payload bytes and a wrapping alive counter, each a DBC signal the rig
// names (docs/can.md "Counters and CRCs"; the profiles are in profile.hpp). Pure functions;
// RT-safe.

#include <cstdint>
#include <optional>
#include <span>

namespace hil::io::can {

/// CRC-8 SAE J1850: polynomial 0x1D, initial value 0xFF, final XOR 0xFF, no reflection
/// (check value of "123456789": 0x4B). Over `data_id` first when given, then every byte of
/// `payload` except the one at `skip` (the CRC's own byte).
[[nodiscard]] std::uint8_t crc8_j1850(std::span<const std::uint8_t> payload, std::size_t skip,
                                      std::optional<std::uint8_t> data_id) noexcept;

/// What a received alive counter says about the frame that carries it.
enum class CounterCheck : std::uint8_t {
  first,   ///< no previous value to compare with
  next,    ///< previous + 1 (mod 2^bits)
  jump,    ///< advanced by more than one: frames were lost on the way (accepted, counted)
  repeat,  ///< the same value again: a stale or replayed frame (dropped, counted)
};

/// Compares counter value `now` with `previous` for a counter of `bits` bits (1..32).
[[nodiscard]] CounterCheck check_counter(std::optional<std::uint32_t> previous, std::uint32_t now,
                                         std::uint32_t bits) noexcept;

}  // namespace hil::io::can
