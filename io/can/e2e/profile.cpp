#include "io/can/e2e/profile.hpp"

#include <algorithm>

#include "io/can/e2e/crc.hpp"

namespace hil::io::can::e2e {
namespace {

constexpr std::uint32_t kNibbleBits = 4;
constexpr std::uint32_t kByteBits = 8;

bool uses_offset_header(Profile p) noexcept { return p == Profile::p05 || p == Profile::p22; }
bool is_p01_family(Profile p) noexcept { return p == Profile::p01 || p == Profile::p11; }
bool has_nibble(const ProfileSpec& spec) noexcept {
  return is_p01_family(spec.profile) && spec.data_id_mode == DataIdMode::nibble;
}

HeaderBits bits_at(std::uint32_t begin, std::uint32_t width) noexcept {
  return HeaderBits{begin, begin + width};
}

// A nibble at a bit offset that is a multiple of 4: the low (offset % 8 == 0) or high half of
// byte offset / 8 (PRS_E2E_00663: P01 counter offset a multiple of 4).
std::uint8_t get_nibble(std::span<const std::uint8_t> payload, std::uint32_t offset) noexcept {
  return static_cast<std::uint8_t>((payload[offset / kByteBits] >> (offset % kByteBits)) & 0x0F);
}

void set_nibble(std::span<std::uint8_t> payload, std::uint32_t offset,
                std::uint32_t value) noexcept {
  std::uint8_t& byte = payload[offset / kByteBits];
  const std::uint32_t shift = offset % kByteBits;
  byte = static_cast<std::uint8_t>((byte & ~(0x0FU << shift)) | ((value & 0x0FU) << shift));
}

// P01/P11 (PRS_E2E_00082, 00505, 00506; SWS E2E_P01Protect "Compute CRC"): the data id bytes
// of the mode, then every byte of DataLength but the CRC's, each call
// Crc_CalculateCRC8(…, start 0xFF, IsFirstCall FALSE) - a register that starts at 0x00 -
// and the result XORed with 0xFF: CRC-8 poly 0x1D with initial value and final XOR 0x00.
std::uint8_t p01_crc(const ProfileSpec& spec, std::span<const std::uint8_t> data,
                     std::uint8_t counter) noexcept {
  const std::array<std::uint8_t, 1> low{static_cast<std::uint8_t>(spec.data_id & 0xFF)};
  const std::array<std::uint8_t, 1> high{static_cast<std::uint8_t>(spec.data_id >> 8)};
  constexpr std::array<std::uint8_t, 1> kZero{0};
  std::uint8_t crc = 0;
  switch (spec.data_id_mode) {
    case DataIdMode::both:
      crc = crc8_sae_j1850(high, crc8_sae_j1850(low, 0xFF, false), false);
      break;
    case DataIdMode::alt:  // the counter's parity picks the byte
      crc = crc8_sae_j1850(counter % 2 == 0 ? low : high, 0xFF, false);
      break;
    case DataIdMode::low:
      crc = crc8_sae_j1850(low, 0xFF, false);
      break;
    case DataIdMode::nibble:  // the high byte's nibble travels in the data: 0x00 here
      crc = crc8_sae_j1850(kZero, crc8_sae_j1850(low, 0xFF, false), false);
      break;
  }
  const std::size_t at = spec.crc_offset_bits / kByteBits;
  crc = crc8_sae_j1850(data.first(at), crc, false);
  crc = crc8_sae_j1850(data.subspan(at + 1), crc, false);
  return static_cast<std::uint8_t>(crc ^ 0xFF);
}

// P02 (SWS E2E_P02Protect "Compute CRC"): CRC-8H2F over Data[1 … DataLength/8 - 1] (first
// call), continued over DataIDList[Counter].
std::uint8_t p02_crc(const ProfileSpec& spec, std::span<const std::uint8_t> data,
                     std::uint8_t counter) noexcept {
  const std::array<std::uint8_t, 1> id{spec.data_id_list[counter & 0x0F]};
  return crc8_h2f(id, crc8_h2f(data.subspan(1)), false);
}

// P22 (PRS_E2E_00528 protect, 00534 check): CRC-8H2F over the bytes before the CRC byte,
// those after it, then DataIDList[Counter].
std::uint8_t p22_crc(const ProfileSpec& spec, std::span<const std::uint8_t> data,
                     std::uint8_t counter) noexcept {
  const std::size_t at = spec.offset_bits / kByteBits;
  const std::array<std::uint8_t, 1> id{spec.data_id_list[counter & 0x0F]};
  std::uint8_t crc = crc8_h2f(data.first(at));
  crc = crc8_h2f(data.subspan(at + 1), crc, false);
  return crc8_h2f(id, crc, false);
}

// P05 (PRS_E2E_00406 "Compute CRC"): CRC-16 over the bytes before the header, those after
// the CRC (the counter first), then the data id's low byte and its high byte.
std::uint16_t p05_crc(const ProfileSpec& spec, std::span<const std::uint8_t> data) noexcept {
  const std::size_t at = spec.offset_bits / kByteBits;
  const std::array<std::uint8_t, 2> id{static_cast<std::uint8_t>(spec.data_id & 0xFF),
                                       static_cast<std::uint8_t>(spec.data_id >> 8)};
  std::uint16_t crc = crc16_ccitt_false(data.first(at));
  crc = crc16_ccitt_false(data.subspan(at + 2), crc, false);
  return crc16_ccitt_false(id, crc, false);
}

}  // namespace

std::uint32_t counter_modulo(const ProfileSpec& spec) noexcept {
  switch (spec.profile) {
    case Profile::p01:
    case Profile::p11:
      return 15;  // 0..14; 15 is the invalid value (E2E_P01ProtectStateType)
    case Profile::p02:
    case Profile::p22:
      return 16;  // 0..15
    case Profile::p05:
      return 256;  // 0..255 (PRS_E2E_00409)
  }
  return 1;
}

std::uint32_t initial_counter(const ProfileSpec& spec) noexcept {
  return spec.profile == Profile::p02 || spec.profile == Profile::p22 ? 1 : 0;
}

std::uint32_t next_counter(const ProfileSpec& spec, std::uint32_t counter) noexcept {
  return (counter + 1) % counter_modulo(spec);
}

HeaderLayout header_layout(const ProfileSpec& spec) noexcept {
  switch (spec.profile) {
    case Profile::p01:
    case Profile::p11:
      return HeaderLayout{
          bits_at(spec.crc_offset_bits, kByteBits), bits_at(spec.counter_offset_bits, kNibbleBits),
          has_nibble(spec) ? bits_at(spec.data_id_nibble_offset_bits, kNibbleBits) : HeaderBits{}};
    case Profile::p02:  // CRC in byte 0, counter in the low nibble of byte 1
      return HeaderLayout{bits_at(0, kByteBits), bits_at(kByteBits, kNibbleBits), {}};
    case Profile::p05:  // CRC (2 bytes), then the counter byte
      return HeaderLayout{bits_at(spec.offset_bits, 2 * kByteBits),
                          bits_at(spec.offset_bits + 2 * kByteBits, kByteBits),
                          {}};
    case Profile::p22:  // CRC byte, then the counter in the next byte's low nibble
      return HeaderLayout{bits_at(spec.offset_bits, kByteBits),
                          bits_at(spec.offset_bits + kByteBits, kNibbleBits),
                          {}};
  }
  return {};
}

bool owns_bit(const HeaderLayout& layout, std::uint32_t bit) noexcept {
  const std::array<HeaderBits, 3> parts{layout.crc, layout.counter, layout.data_id_nibble};
  return std::ranges::any_of(parts,
                             [bit](const HeaderBits& r) { return bit >= r.begin && bit < r.end; });
}

bool fits(const ProfileSpec& spec, std::size_t payload_bytes) noexcept {
  if (spec.data_length_bits % kByteBits != 0 || spec.data_length_bits == 0) return false;
  const std::size_t length = spec.data_length_bits / kByteBits;
  // P01/P02 protect the first DataLength bits; the others take exactly DataLength
  // (E2E_PxxCheck: Length == DataLength / 8).
  const bool prefix = spec.profile == Profile::p01 || spec.profile == Profile::p02;
  if (prefix ? payload_bytes < length : payload_bytes != length) return false;
  const HeaderLayout layout = header_layout(spec);
  for (const HeaderBits& r : {layout.crc, layout.counter, layout.data_id_nibble}) {
    if (r.end > spec.data_length_bits) return false;
  }
  if (is_p01_family(spec.profile) &&
      (spec.crc_offset_bits % kByteBits != 0 || spec.counter_offset_bits % kNibbleBits != 0 ||
       (has_nibble(spec) && spec.data_id_nibble_offset_bits % kNibbleBits != 0))) {
    return false;
  }
  return !uses_offset_header(spec.profile) || spec.offset_bits % kByteBits == 0;
}

void protect(const ProfileSpec& spec, std::span<std::uint8_t> payload,
             std::uint32_t counter) noexcept {
  if (!fits(spec, payload.size())) return;
  const std::span<std::uint8_t> data = payload.first(spec.data_length_bits / kByteBits);
  switch (spec.profile) {
    case Profile::p01:
    case Profile::p11:  // write counter, data id nibble, then CRC (PRS_E2E_00509 for P11)
      set_nibble(data, spec.counter_offset_bits, counter);
      if (has_nibble(spec)) set_nibble(data, spec.data_id_nibble_offset_bits, spec.data_id >> 8);
      data[spec.crc_offset_bits / kByteBits] = p01_crc(spec, data, counter & 0x0F);
      break;
    case Profile::p02:
      set_nibble(data, kByteBits, counter);
      data[0] = p02_crc(spec, data, counter & 0x0F);
      break;
    case Profile::p22:
      set_nibble(data, spec.offset_bits + kByteBits, counter);
      data[spec.offset_bits / kByteBits] = p22_crc(spec, data, counter & 0x0F);
      break;
    case Profile::p05: {  // PRS_E2E_00405 write counter, 00406 compute, 00407 write CRC
      const std::size_t at = spec.offset_bits / kByteBits;
      data[at + 2] = static_cast<std::uint8_t>(counter & 0xFF);
      const std::uint16_t crc = p05_crc(spec, data);
      data[at] = static_cast<std::uint8_t>(crc & 0xFF);  // low byte first (Table 6.47)
      data[at + 1] = static_cast<std::uint8_t>(crc >> 8);
      break;
    }
  }
}

std::uint32_t read_counter(const ProfileSpec& spec,
                           std::span<const std::uint8_t> payload) noexcept {
  if (!fits(spec, payload.size())) return 0;
  switch (spec.profile) {
    case Profile::p01:
    case Profile::p11:
      return get_nibble(payload, spec.counter_offset_bits);
    case Profile::p02:
      return get_nibble(payload, kByteBits);
    case Profile::p22:
      return get_nibble(payload, spec.offset_bits + kByteBits);
    case Profile::p05:
      return payload[spec.offset_bits / kByteBits + 2];
  }
  return 0;
}

std::uint32_t read_crc(const ProfileSpec& spec, std::span<const std::uint8_t> payload) noexcept {
  if (!fits(spec, payload.size())) return 0;
  switch (spec.profile) {
    case Profile::p01:
    case Profile::p11:
      return payload[spec.crc_offset_bits / kByteBits];
    case Profile::p02:
      return payload[0];
    case Profile::p22:
      return payload[spec.offset_bits / kByteBits];
    case Profile::p05: {
      const std::size_t at = spec.offset_bits / kByteBits;
      return static_cast<std::uint32_t>(payload[at] | (payload[at + 1] << 8));
    }
  }
  return 0;
}

std::uint32_t read_data_id_nibble(const ProfileSpec& spec,
                                  std::span<const std::uint8_t> payload) noexcept {
  if (!has_nibble(spec) || !fits(spec, payload.size())) return 0;
  return get_nibble(payload, spec.data_id_nibble_offset_bits);
}

std::uint32_t compute_crc(const ProfileSpec& spec, std::span<const std::uint8_t> payload) noexcept {
  if (!fits(spec, payload.size())) return 0;
  const std::span<const std::uint8_t> data = payload.first(spec.data_length_bits / kByteBits);
  const auto counter = static_cast<std::uint8_t>(read_counter(spec, payload));
  switch (spec.profile) {
    case Profile::p01:
    case Profile::p11:
      return p01_crc(spec, data, counter);
    case Profile::p02:
      return p02_crc(spec, data, counter);
    case Profile::p22:
      return p22_crc(spec, data, counter);
    case Profile::p05:
      return p05_crc(spec, data);
  }
  return 0;
}

std::string_view profile_name(Profile profile) noexcept {
  switch (profile) {
    case Profile::p01:
      return "P01";
    case Profile::p02:
      return "P02";
    case Profile::p05:
      return "P05";
    case Profile::p11:
      return "P11";
    case Profile::p22:
      return "P22";
  }
  return "P??";
}

}  // namespace hil::io::can::e2e
