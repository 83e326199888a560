// validate(ProfileSpec): the configuration ranges of the profiles (setup phase; allocates).
// Sources as in profile.hpp; each rule names where it comes from.

#include <algorithm>
#include <string>

#include "io/can/e2e/profile.hpp"

namespace hil::io::can::e2e {
namespace {

std::string hex(std::uint32_t value) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string text;
  do {
    text.insert(text.begin(), kDigits[value % 16]);
    value /= 16;
  } while (value != 0);
  return "0x" + text;
}

std::string range_text(const HeaderBits& r) {
  return "bits " + std::to_string(r.begin) + "-" + std::to_string(r.end - 1);
}

bool overlap(const HeaderBits& a, const HeaderBits& b) {
  return a.begin < a.end && b.begin < b.end && a.begin < b.end && b.begin < a.end;
}

// Data length, lengths per profile: P01 ≤ 240 bits (E2E_P01ConfigType, SWS_E2E_00018), P02
// 16…2048 bits (E2E_P02ConfigType), P05 3…4096 bytes (E2E_P05ConfigType), P11/P22 at least
// the header.
std::string check_length(const ProfileSpec& spec, std::size_t payload_bytes) {
  const std::uint32_t bits = spec.data_length_bits;
  if (bits == 0 || bits % 8 != 0) {
    return "data_length_bits " + std::to_string(bits) + " is not a positive multiple of 8";
  }
  const std::size_t bytes = bits / 8;
  const bool prefix = spec.profile == Profile::p01 || spec.profile == Profile::p02;
  if (prefix ? bytes > payload_bytes : bytes != payload_bytes) {
    return std::string{profile_name(spec.profile)} + " data_length_bits " + std::to_string(bits) +
           (prefix ? " exceeds" : " differs from") + " the payload (" +
           std::to_string(payload_bytes) + " bytes)";
  }
  if (spec.profile == Profile::p01 && bits > 240) {
    return "P01 protects at most 240 bits (data_length_bits " + std::to_string(bits) + ")";
  }
  if (spec.profile == Profile::p02 && (bits < 16 || bits > 2048)) {
    return "P02 data_length_bits must be 16-2048 (is " + std::to_string(bits) + ")";
  }
  if (spec.profile == Profile::p05 && (bits < 24 || bits > 4096 * 8)) {
    return "P05 data_length_bits must be 24-32768 (is " + std::to_string(bits) + ")";
  }
  return "";
}

// Alignment: P01/P11 CRC offset a multiple of 8, counter and nibble offsets multiples of 4
// (PRS_E2E_00663); P05/P22 Offset a multiple of 8; P02 has a fixed layout.
std::string check_alignment(const ProfileSpec& spec) {
  switch (spec.profile) {
    case Profile::p01:
    case Profile::p11:
      if (spec.crc_offset_bits % 8 != 0) return "crc_offset_bits is not a multiple of 8";
      if (spec.counter_offset_bits % 4 != 0) return "counter_offset_bits is not a multiple of 4";
      if (spec.data_id_mode == DataIdMode::nibble && spec.data_id_nibble_offset_bits % 4 != 0) {
        return "data_id_nibble_offset_bits is not a multiple of 4";
      }
      return "";
    case Profile::p02:
      return spec.offset_bits == 0
                 ? ""
                 : "P02 has a fixed layout (CRC byte 0, counter bits 8-11): offset_bits must be 0";
    case Profile::p05:
    case Profile::p22:
      return spec.offset_bits % 8 == 0 ? "" : "offset_bits is not a multiple of 8";
  }
  return "";
}

// Data id: P01 LOW mode uses 8 bits, NIBBLE mode 12 (PRS_E2E_00163); P11 has BOTH and NIBBLE
// only (PRS_E2E_00505, 00506); P02/P22 need their DataIDList.
std::string check_data_id(const ProfileSpec& spec) {
  const bool p01_family = spec.profile == Profile::p01 || spec.profile == Profile::p11;
  if (p01_family) {
    const DataIdMode mode = spec.data_id_mode;
    if (spec.profile == Profile::p11 && (mode == DataIdMode::alt || mode == DataIdMode::low)) {
      return "P11 has data id modes both and nibble only";
    }
    if (mode == DataIdMode::low && spec.data_id > 0xFF) {
      return "data_id " + hex(spec.data_id) + " has more than 8 bits (mode low)";
    }
    if (mode == DataIdMode::nibble && spec.data_id > 0xFFF) {
      return "data_id " + hex(spec.data_id) + " has more than 12 bits (mode nibble)";
    }
  }
  const bool list = spec.profile == Profile::p02 || spec.profile == Profile::p22;
  if (list && std::all_of(spec.data_id_list.begin(), spec.data_id_list.end(),
                          [](std::uint8_t id) { return id == 0; })) {
    return std::string{profile_name(spec.profile)} + " needs data_id_list (all 16 entries are 0)";
  }
  return "";
}

// Receiver: MaxDeltaCounter 1 … the largest counter (a step of 0 is a repetition); P01/P02
// MaxNoNewOrRepeatedData and SyncCounterInit up to the largest counter.
std::string check_receiver(const ProfileSpec& spec) {
  const std::uint32_t largest = counter_modulo(spec) - 1;
  if (spec.max_delta_counter < 1 || spec.max_delta_counter > largest) {
    return "max_delta_counter must be 1-" + std::to_string(largest) + " (is " +
           std::to_string(spec.max_delta_counter) + ")";
  }
  if (spec.profile == Profile::p01 || spec.profile == Profile::p02) {
    if (spec.max_no_new_or_repeated_data > largest) {
      return "max_no_new_or_repeated_data must be 0-" + std::to_string(largest);
    }
    if (spec.sync_counter_init > largest) {
      return "sync_counter_init must be 0-" + std::to_string(largest);
    }
  }
  return "";
}

std::string check_header(const ProfileSpec& spec) {
  const HeaderLayout layout = header_layout(spec);
  const struct {
    const char* what = "";
    HeaderBits bits;
  } parts[] = {
      {"CRC", layout.crc}, {"counter", layout.counter}, {"data id nibble", layout.data_id_nibble}};
  for (const auto& part : parts) {
    if (part.bits.end > spec.data_length_bits) {
      return std::string{"the "} + part.what + " (" + range_text(part.bits) +
             ") lies outside data_length_bits " + std::to_string(spec.data_length_bits);
    }
  }
  for (std::size_t i = 0; i < std::size(parts); ++i) {
    for (std::size_t j = i + 1; j < std::size(parts); ++j) {
      if (overlap(parts[i].bits, parts[j].bits)) {
        return std::string{"the "} + parts[i].what + " (" + range_text(parts[i].bits) +
               ") overlaps the " + parts[j].what + " (" + range_text(parts[j].bits) + ")";
      }
    }
  }
  return "";
}

}  // namespace

std::string validate(const ProfileSpec& spec, std::size_t payload_bytes) {
  for (const std::string& problem :
       {check_length(spec, payload_bytes), check_alignment(spec), check_header(spec),
        check_data_id(spec), check_receiver(spec)}) {
    if (!problem.empty()) return problem;
  }
  return "";
}

}  // namespace hil::io::can::e2e
