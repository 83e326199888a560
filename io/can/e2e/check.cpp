#include "io/can/e2e/check.hpp"

namespace hil::io::can::e2e {
namespace {

// The step from `last` to `received` modulo the profile's counter range (DeltaCounter).
std::uint32_t delta_counter(const ProfileSpec& spec, std::uint32_t last,
                            std::uint32_t received) noexcept {
  const std::uint32_t modulo = counter_modulo(spec);
  return (received + modulo - last % modulo) % modulo;
}

bool counter_in_range(const ProfileSpec& spec, std::uint32_t counter) noexcept {
  return counter < counter_modulo(spec);  // P01/P11: 15 is the invalid value
}

// CRC and, in nibble mode, the explicit data id nibble (P01 PRS_E2E_00196 step 2, P11 the
// same): a wrong data id shows as a CRC error where the id is implicit.
bool crc_and_data_id_ok(const ProfileSpec& spec, std::span<const std::uint8_t> payload) noexcept {
  if (read_crc(spec, payload) != compute_crc(spec, payload)) return false;
  const bool nibble = (spec.profile == Profile::p01 || spec.profile == Profile::p11) &&
                      spec.data_id_mode == DataIdMode::nibble;
  return !nibble || read_data_id_nibble(spec, payload) == ((spec.data_id >> 8) & 0x0FU);
}

std::uint8_t saturating_increment(std::uint8_t value, std::uint8_t limit) noexcept {
  return value < limit ? static_cast<std::uint8_t>(value + 1) : limit;
}

// P01 (PRS_E2E_00196) and P02 (SWS E2E_P02Check): the same flow; P01 counts modulo 15 and
// caps its counters at 14, P02 modulo 16 and at 15.
ProfileStatus check_p01_p02(const ProfileSpec& spec, CheckState& s,
                            std::span<const std::uint8_t> payload) noexcept {
  const auto cap = static_cast<std::uint8_t>(counter_modulo(spec) - 1);
  // Every call widens the tolerance by one: frames missed count as steps.
  s.max_delta_counter = saturating_increment(s.max_delta_counter, cap);
  if (payload.empty()) {
    s.no_new_or_repeated_data_counter =
        saturating_increment(s.no_new_or_repeated_data_counter, cap);
    return ProfileStatus::no_new_data;
  }
  const std::uint32_t received = read_counter(spec, payload);
  if (!counter_in_range(spec, received)) return ProfileStatus::input_error;
  if (!crc_and_data_id_ok(spec, payload)) return ProfileStatus::wrong_crc;
  const auto counter = static_cast<std::uint8_t>(received);
  if (s.wait_for_first_data) {
    s.wait_for_first_data = false;
    s.max_delta_counter = spec.max_delta_counter;
    s.last_counter = counter;
    return ProfileStatus::initial;
  }
  const std::uint32_t delta = delta_counter(spec, s.last_counter, received);
  if (delta == 0) {
    s.no_new_or_repeated_data_counter =
        saturating_increment(s.no_new_or_repeated_data_counter, cap);
    return ProfileStatus::repeated;
  }
  if (delta > s.max_delta_counter) {
    s.no_new_or_repeated_data_counter = 0;
    s.sync_counter = spec.sync_counter_init;
    if (s.sync_counter > 0) {  // lock in on the new sequence
      s.max_delta_counter = spec.max_delta_counter;
      s.last_counter = counter;
    }
    return ProfileStatus::wrong_sequence;
  }
  s.max_delta_counter = spec.max_delta_counter;
  s.last_counter = counter;
  s.lost_data = static_cast<std::uint8_t>(delta - 1);
  ProfileStatus result = delta == 1 ? ProfileStatus::ok : ProfileStatus::ok_some_lost;
  if (s.no_new_or_repeated_data_counter > spec.max_no_new_or_repeated_data) {
    s.sync_counter = spec.sync_counter_init;  // too long without new data: resynchronise
    result = ProfileStatus::sync;
  } else if (s.sync_counter > 0) {
    --s.sync_counter;
    result = ProfileStatus::sync;
  }
  s.no_new_or_repeated_data_counter = 0;
  return result;
}

// E2E_PxxCheckInit's Counter: one step before the specified sender's first counter (P05
// 0xFF, P11 0x0E, P22 0x0F).
std::uint8_t check_init_counter(const ProfileSpec& spec) noexcept {
  return static_cast<std::uint8_t>(counter_modulo(spec) - 1);
}

// P05 (PRS §6.6.x "Do Checks"), P11 (PRS_E2E_00516), P22 (PRS_E2E_00534): the counter of
// every frame with a good CRC becomes the reference, whatever its step.
ProfileStatus check_p05_p11_p22(const ProfileSpec& spec, CheckState& s,
                                std::span<const std::uint8_t> payload) noexcept {
  if (payload.empty()) return ProfileStatus::no_new_data;
  const std::uint32_t received = read_counter(spec, payload);
  if (!counter_in_range(spec, received)) return ProfileStatus::input_error;
  if (!crc_and_data_id_ok(spec, payload)) return ProfileStatus::error;
  const std::uint8_t last = s.wait_for_first_data ? check_init_counter(spec) : s.last_counter;
  const std::uint32_t delta = delta_counter(spec, last, received);
  s.last_counter = static_cast<std::uint8_t>(received);
  s.wait_for_first_data = false;
  if (delta > spec.max_delta_counter) return ProfileStatus::wrong_sequence;
  if (delta == 0) return ProfileStatus::repeated;
  s.lost_data = static_cast<std::uint8_t>(delta - 1);
  return delta == 1 ? ProfileStatus::ok : ProfileStatus::ok_some_lost;
}

}  // namespace

Status map_status(const ProfileSpec& spec, ProfileStatus status) noexcept {
  switch (status) {
    case ProfileStatus::ok:
    case ProfileStatus::ok_some_lost:
      return Status::ok;
    case ProfileStatus::no_new_data:
      return Status::no_data;
    case ProfileStatus::repeated:
      return Status::repeated;
    case ProfileStatus::wrong_sequence:
      return Status::wrong_sequence;
    case ProfileStatus::initial:  // SWS_E2E_00382: profileBehavior TRUE → WRONGSEQUENCE
      return spec.legacy_status_mapping ? Status::ok : Status::wrong_sequence;
    case ProfileStatus::sync:  // profileBehavior TRUE → OK
      return spec.legacy_status_mapping ? Status::wrong_sequence : Status::ok;
    case ProfileStatus::wrong_crc:
    case ProfileStatus::error:
    case ProfileStatus::input_error:  // CheckReturn != E2E_E_OK → E2E_P_ERROR
      return Status::error;
  }
  return Status::error;
}

Status check(const ProfileSpec& spec, CheckState& state,
             std::span<const std::uint8_t> payload) noexcept {
  if (!payload.empty() && !fits(spec, payload.size())) {
    state.status = ProfileStatus::input_error;  // rejected before any state changes
  } else if (spec.profile == Profile::p01 || spec.profile == Profile::p02) {
    state.status = check_p01_p02(spec, state, payload);
  } else {
    state.status = check_p05_p11_p22(spec, state, payload);
  }
  return map_status(spec, state.status);
}

}  // namespace hil::io::can::e2e
