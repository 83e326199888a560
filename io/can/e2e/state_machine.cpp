#include "io/can/e2e/state_machine.hpp"

namespace hil::io::can::e2e {
namespace {

WindowSlot slot_of(Status status) noexcept {
  switch (status) {
    case Status::ok:
      return WindowSlot::ok;
    case Status::error:
      return WindowSlot::error;
    case Status::repeated:
    case Status::wrong_sequence:
    case Status::no_data:
      return WindowSlot::other;
  }
  return WindowSlot::other;
}

std::uint8_t window_size(const StateMachineSpec& spec, SmState state) noexcept {
  switch (state) {
    case SmState::init:
      return spec.window_size_init;
    case SmState::invalid:
      return spec.window_size_invalid;
    case SmState::no_data:  // NODATA's counts decide nothing; the whole array is counted
    case SmState::valid:
      return spec.window_size_valid;
  }
  return spec.window_size_valid;
}

// The array has WindowSizeValid entries (PRS_E2E_00669); the index wraps there.
std::uint8_t next_index(const StateMachineSpec& spec, std::uint8_t index) noexcept {
  return static_cast<std::uint8_t>((index + 1) % spec.window_size_valid);
}
std::uint8_t previous_index(const StateMachineSpec& spec, std::uint8_t index) noexcept {
  return static_cast<std::uint8_t>((index + spec.window_size_valid - 1) % spec.window_size_valid);
}

// E2E_SMAddStatus (PRS_E2E_00466): write the status at the top, count the OK and ERROR
// results among the current state's window of most recent entries, advance the top.
void add_status(const StateMachineSpec& spec, SmCheckState& s, Status status) noexcept {
  s.window[s.window_top_index] = slot_of(status);
  s.ok_count = 0;
  s.error_count = 0;
  std::uint8_t index = s.window_top_index;
  for (std::uint8_t n = 0; n < window_size(spec, s.state); ++n) {
    if (s.window[index] == WindowSlot::ok) ++s.ok_count;
    if (s.window[index] == WindowSlot::error) ++s.error_count;
    index = previous_index(spec, index);
  }
  s.window_top_index = next_index(spec, s.window_top_index);
}

// E2E_SMClearStatus (PRS_E2E_00467): an empty window.
void clear_status(const StateMachineSpec& spec, SmCheckState& s) noexcept {
  for (std::size_t i = 0; i < spec.window_size_valid; ++i) s.window[i] = WindowSlot::not_available;
  s.window_top_index = 0;
  s.ok_count = 0;
  s.error_count = 0;
}

// E2E_SMClearRemainingStatus (PRS_E2E_00607): entering a state with a larger window, forget
// the entries outside the current one, so the larger window starts from what the smaller
// one held (the oldest entries sit from the top index on).
void clear_remaining_status(const StateMachineSpec& spec, SmCheckState& s, SmState next) noexcept {
  const std::uint8_t current = window_size(spec, s.state);
  if (current >= window_size(spec, next)) return;
  std::uint8_t index = s.window_top_index;
  for (std::uint8_t n = current; n < spec.window_size_valid; ++n) {
    s.window[index] = WindowSlot::not_available;
    index = next_index(spec, index);
  }
}

void enter_invalid(const StateMachineSpec& spec, SmCheckState& s) noexcept {
  if (spec.clear_to_invalid) {
    clear_status(spec, s);
  } else {
    clear_remaining_status(spec, s, SmState::invalid);
  }
  s.state = SmState::invalid;
}

}  // namespace

SmState sm_check(const StateMachineSpec& spec, SmCheckState& state, Status status) noexcept {
  if (spec.window_size_valid == 0 || spec.window_size_valid > kMaxWindowSize) return state.state;
  add_status(spec, state, status);
  switch (state.state) {
    case SmState::no_data:  // anything but ERROR / NONEWDATA: data is arriving
      if (status != Status::error && status != Status::no_data) {
        clear_status(spec, state);
        state.state = SmState::init;
      }
      break;
    case SmState::init:
      if (state.error_count > spec.max_error_state_init) {
        enter_invalid(spec, state);
      } else if (state.ok_count >= spec.min_ok_state_init) {
        clear_remaining_status(spec, state, SmState::valid);
        state.state = SmState::valid;
      }
      break;
    case SmState::valid:
      if (state.error_count > spec.max_error_state_valid ||
          state.ok_count < spec.min_ok_state_valid) {
        if (spec.clear_to_invalid) clear_status(spec, state);
        state.state = SmState::invalid;
      }
      break;
    case SmState::invalid:
      if (state.error_count <= spec.max_error_state_invalid &&
          state.ok_count >= spec.min_ok_state_invalid) {
        clear_remaining_status(spec, state, SmState::valid);
        state.state = SmState::valid;
      }
      break;
  }
  return state.state;
}

std::string validate(const StateMachineSpec& spec) {
  const auto text = [](unsigned v) { return std::to_string(v); };
  if (spec.window_size_valid < 1 || spec.window_size_valid > kMaxWindowSize) {
    return "window_size_valid must be 1-" + text(kMaxWindowSize) + " (is " +
           text(spec.window_size_valid) + ")";
  }
  if (spec.window_size_init < 1 || spec.window_size_init > spec.window_size_valid) {
    return "window_size_init must be 1-window_size_valid (constr_6302)";
  }
  if (spec.window_size_invalid < 1 || spec.window_size_invalid > spec.window_size_valid) {
    return "window_size_invalid must be 1-window_size_valid (constr_6301)";
  }
  if (spec.max_error_state_valid < spec.max_error_state_init ||
      spec.max_error_state_init < spec.max_error_state_invalid) {
    return "max_error_state_valid >= max_error_state_init >= max_error_state_invalid is "
           "required (constr_3177)";
  }
  if (spec.min_ok_state_valid < 1 || spec.min_ok_state_valid > spec.min_ok_state_init ||
      spec.min_ok_state_init > spec.min_ok_state_invalid) {
    return "1 <= min_ok_state_valid <= min_ok_state_init <= min_ok_state_invalid is required "
           "(constr_3178)";
  }
  const struct {
    const char* state = "";
    unsigned min_ok = 0;
    unsigned max_error = 0;
    unsigned window = 0;
  } states[] = {
      {"init", spec.min_ok_state_init, spec.max_error_state_init, spec.window_size_init},
      {"valid", spec.min_ok_state_valid, spec.max_error_state_valid, spec.window_size_valid},
      {"invalid", spec.min_ok_state_invalid, spec.max_error_state_invalid,
       spec.window_size_invalid},
  };
  for (const auto& s : states) {
    if (s.min_ok + s.max_error > spec.window_size_valid) {  // constr_3179 … 3181
      return std::string{"min_ok_state_"} + s.state + " + max_error_state_" + s.state +
             " exceeds window_size_valid";
    }
    if (s.min_ok > s.window) {  // never reached: the window cannot hold that many OKs
      return std::string{"min_ok_state_"} + s.state + " exceeds window_size_" + s.state;
    }
  }
  return "";
}

}  // namespace hil::io::can::e2e
