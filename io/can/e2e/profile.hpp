#pragma once
// AUTOSAR E2E profiles 1, 2, 5, 11 and 22 as used on CAN and CAN FD: their configuration, the
// payload bits each one owns, the sender's protection (E2E_PxxProtect) and the CRC as the
// receiver recomputes it. The receiver's check is in check.hpp.
//
// Follows AUTOSAR FO "E2E Protocol Specification" (PRS_E2EProtocol) R20-11, §6.3 (profile 1),
// §6.4 (profile 2), §6.6 (profile 5), §6.12 (profile 11), §6.13 (profile 22), and for the
// configuration ranges of profiles 1 and 2 AUTOSAR CP "Specification of SW-C End-to-End
// Communication Protection Library" (SWS_E2ELibrary), E2E_P01ConfigType / E2E_P02ConfigType.
// The requirement ids cited in the sources were taken from implementations that trace to the
// PRS (the specification PDF itself was not at hand); the worked examples in
// tests/io/can/e2e/ pin the behaviour.
//
// Bit numbering, here and in every offset: bit b of the payload is bit (b % 8) of byte b / 8,
// bit 0 the least significant ("byte*8 + bit, LSB 0", the DBC's Intel start bit). The
// profiles' offsets mean the same: a counter at offset 8 is the low nibble of byte 1, at 12
// the high nibble.
//
// validate() runs at setup and allocates; everything else is a pure function, noexcept,
// without allocation: RT-safe.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace hil::io::can::e2e {

/// The E2E profile protecting a message.
enum class Profile : std::uint8_t {
  p01,  ///< CRC-8 SAE J1850 + 4-bit counter 0..14, data id implicit (4 inclusion modes)
  p02,  ///< CRC-8H2F + 4-bit counter 0..15, a data id per counter value; fixed layout
  p05,  ///< CRC-16 CCITT-FALSE + 8-bit counter, 16-bit data id implicit; header at `offset`
  p11,  ///< profile 1 for CAN (bus-compatible with P01): modes both and nibble only
  p22,  ///< profile 2 for CAN FD: header at `offset`
};

/// How P01/P11 include the 16-bit data id (E2E_P01DataIDMode; PRS_E2E_00163).
enum class DataIdMode : std::uint8_t {
  both,    ///< low byte, then high byte, in the CRC (1A / 11A)
  alt,     ///< low byte for even counters, high byte for odd ones (1B; P01 only)
  low,     ///< low byte only: the id has 8 bits (P01 only)
  nibble,  ///< low byte in the CRC, low nibble of the high byte sent in the data (1C / 11C)
};

/// How one message is protected: what the sender writes and the receiver expects.
struct ProfileSpec {
  Profile profile = Profile::p01;
  std::uint16_t data_id = 0;                    ///< P01, P05, P11 (nibble mode: 12 bits used)
  std::array<std::uint8_t, 16> data_id_list{};  ///< P02, P22: the data id of each counter value
  DataIdMode data_id_mode = DataIdMode::both;   ///< P01: all four; P11: both, nibble
  /// DataLength: the protected length in bits, a multiple of 8. P05/P11/P22: the frame's
  /// payload length; P01/P02: the leading bytes protected (at most the payload).
  std::uint32_t data_length_bits = 64;
  std::uint32_t offset_bits = 0;                  ///< P05, P22: the header (CRC, then counter)
  std::uint32_t crc_offset_bits = 0;              ///< P01, P11: the CRC byte (multiple of 8)
  std::uint32_t counter_offset_bits = 8;          ///< P01, P11: the counter nibble (of 4)
  std::uint32_t data_id_nibble_offset_bits = 12;  ///< P01, P11 nibble mode (multiple of 4)
  /// Receiver: the largest counter step still accepted (MaxDeltaCounter; P01/P02:
  /// MaxDeltaCounterInit, which the check widens by one for every cycle without new data).
  std::uint8_t max_delta_counter = 1;
  /// Receiver, P01/P02 (MaxNoNewOrRepeatedData): cycles without new data, or with repeated
  /// data, tolerated before the next good frame reports SYNC. 14 (P01's largest) never
  /// triggers for P01; for P02 it triggers after 15.
  std::uint8_t max_no_new_or_repeated_data = 14;
  /// Receiver, P01/P02 (SyncCounterInit): good frames reported SYNC after a counter jump
  /// before OK again. 0: no SYNC phase, but then a jump is not locked in either: the check
  /// keeps comparing with the last good counter until the sequence catches up (as specified).
  std::uint8_t sync_counter_init = 0;
  /// P01/P02 E2E_PxxMapStatusToSM profileBehavior FALSE (before R4.2: INITIAL is OK, SYNC a
  /// wrong sequence). Default: the R4.2 behaviour (INITIAL a wrong sequence, SYNC OK).
  bool legacy_status_mapping = false;
};

/// A range of payload bits [begin, end) in the numbering above; empty when begin == end.
struct HeaderBits {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

/// The payload bits a profile owns: no application signal may overlap them.
struct HeaderLayout {
  HeaderBits crc;
  HeaderBits counter;
  HeaderBits data_id_nibble;  ///< P01/P11 nibble mode only
};

/// "P01", "P02", "P05", "P11", "P22".
[[nodiscard]] std::string_view profile_name(Profile profile) noexcept;

/// "" if `spec` can protect a payload of `payload_bytes` bytes, else a one-line problem
/// (setup phase; allocates).
[[nodiscard]] std::string validate(const ProfileSpec& spec, std::size_t payload_bytes);

/// How many counter values the sender cycles through: 15 (P01, P11: 0..14), 16 (P02, P22),
/// 256 (P05).
[[nodiscard]] std::uint32_t counter_modulo(const ProfileSpec& spec) noexcept;

/// The counter of the first frame a specified sender sends: 0 (P01, P05, P11, which write the
/// counter and then increment it) or 1 (P02, P22, which increment it and then write it).
[[nodiscard]] std::uint32_t initial_counter(const ProfileSpec& spec) noexcept;

/// The counter after `counter`, modulo counter_modulo().
[[nodiscard]] std::uint32_t next_counter(const ProfileSpec& spec, std::uint32_t counter) noexcept;

/// The CRC, counter and data id nibble bits of `spec`.
[[nodiscard]] HeaderLayout header_layout(const ProfileSpec& spec) noexcept;

/// Whether payload bit `bit` belongs to the header `layout`.
[[nodiscard]] bool owns_bit(const HeaderLayout& layout, std::uint32_t bit) noexcept;

/// Whether a payload of `payload_bytes` bytes can carry `spec`'s protection (its length fits
/// DataLength, the header lies inside DataLength); the functions below do nothing (protect)
/// or return 0 on a payload that cannot.
[[nodiscard]] bool fits(const ProfileSpec& spec, std::size_t payload_bytes) noexcept;

/// E2E_PxxProtect with the counter given: writes `counter` (masked to the counter's width, so
/// a fault injector can write P01's forbidden 15), in nibble mode the data id nibble, then the
/// CRC. The sender's counter state is the caller's (initial_counter(), next_counter()).
void protect(const ProfileSpec& spec, std::span<std::uint8_t> payload,
             std::uint32_t counter) noexcept;

/// The counter field of `payload`.
[[nodiscard]] std::uint32_t read_counter(const ProfileSpec& spec,
                                         std::span<const std::uint8_t> payload) noexcept;

/// The CRC field of `payload` (P05: 16 bits, low byte first).
[[nodiscard]] std::uint32_t read_crc(const ProfileSpec& spec,
                                     std::span<const std::uint8_t> payload) noexcept;

/// The data id nibble of `payload` (P01/P11 nibble mode; 0 otherwise).
[[nodiscard]] std::uint32_t read_data_id_nibble(const ProfileSpec& spec,
                                                std::span<const std::uint8_t> payload) noexcept;

/// The CRC of `payload` as the receiver recomputes it: over the data id and every protected
/// byte but the CRC's, with the counter `payload` carries (P01 alt mode, P02/P22 id list).
[[nodiscard]] std::uint32_t compute_crc(const ProfileSpec& spec,
                                        std::span<const std::uint8_t> payload) noexcept;

}  // namespace hil::io::can::e2e
