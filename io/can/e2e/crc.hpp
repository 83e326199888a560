#pragma once
// The CRC routines the AUTOSAR E2E profiles use, with the calling convention of AUTOSAR CP
// "Specification of CRC Routines" (SWS_CRCLibrary, R20-11), §7.2 (Crc_CalculateCRC8,
// Crc_CalculateCRC8H2F, Crc_CalculateCRC16): a start value and an is-first-call flag, so that
// one CRC is continued over several spans (the E2E profiles feed the data id after, or
// between, spans of the payload). Table-driven, tables built at compile time.
// Pure functions; RT-safe.

#include <cstdint>
#include <span>

namespace hil::io::can::e2e {

inline constexpr std::uint8_t kCrc8InitialValue = 0xFF;      ///< CRC-8 SAE J1850
inline constexpr std::uint8_t kCrc8XorValue = 0xFF;          ///< CRC-8 SAE J1850
inline constexpr std::uint8_t kCrc8H2FInitialValue = 0xFF;   ///< CRC-8H2F
inline constexpr std::uint8_t kCrc8H2FXorValue = 0xFF;       ///< CRC-8H2F
inline constexpr std::uint16_t kCrc16InitialValue = 0xFFFF;  ///< CRC-16 CCITT-FALSE
inline constexpr std::uint16_t kCrc16XorValue = 0x0000;      ///< CRC-16 CCITT-FALSE

// Calling convention (all three): with `is_first_call` the register starts from the initial
// value and `start_value` is ignored; without it, `start_value` is the value the previous call
// returned over the bytes before `data` (its final XOR is undone first), so
// crc(b, crc(a), false) == crc(a ++ b). An empty span continues harmlessly.

/// CRC-8 SAE J1850 (Crc_CalculateCRC8): polynomial 0x1D, initial value 0xFF, XOR value 0xFF,
/// not reflected; check value over "123456789": 0x4B.
[[nodiscard]] std::uint8_t crc8_sae_j1850(std::span<const std::uint8_t> data,
                                          std::uint8_t start_value = kCrc8InitialValue,
                                          bool is_first_call = true) noexcept;

/// CRC-8H2F (Crc_CalculateCRC8H2F): polynomial 0x2F, initial value 0xFF, XOR value 0xFF, not
/// reflected; check value over "123456789": 0xDF.
[[nodiscard]] std::uint8_t crc8_h2f(std::span<const std::uint8_t> data,
                                    std::uint8_t start_value = kCrc8H2FInitialValue,
                                    bool is_first_call = true) noexcept;

/// CRC-16 CCITT-FALSE (Crc_CalculateCRC16): polynomial 0x1021, initial value 0xFFFF, XOR value
/// 0x0000, not reflected; check value over "123456789": 0x29B1.
[[nodiscard]] std::uint16_t crc16_ccitt_false(std::span<const std::uint8_t> data,
                                              std::uint16_t start_value = kCrc16InitialValue,
                                              bool is_first_call = true) noexcept;

}  // namespace hil::io::can::e2e
