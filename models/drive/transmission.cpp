#include "models/drive/transmission.hpp"

#include <algorithm>
#include <cmath>

namespace hil::models {

namespace {

void change_gear(TransmissionState& s, int gear) noexcept {
  if (gear == s.gear) return;
  s.gear = gear;
  s.since_shift = 0.0;
}

void manual_levers(const TransmissionParams& p, TransmissionState& s, bool up_press,
                   bool down_press) noexcept {
  const int top = static_cast<int>(p.forward_count);
  // AutoSim §4.4.2/§4.4.5 sequential: only the adjacent gear, R ↔ N ↔ 1 ↔ … ↔ n
  if (up_press) change_gear(s, std::min(s.gear + 1, top));
  if (down_press) change_gear(s, std::max(s.gear - 1, -1));
}

void automatic_levers(TransmissionState& s, bool up_press, bool down_press) noexcept {
  // Selector R ↔ N ↔ D: AutoSim §5.1 "forward and reverse gears to set the direction"
  if (up_press && s.gear <= 0) change_gear(s, s.gear + 1);
  if (down_press) change_gear(s, s.gear >= 1 ? 0 : -1);
}

void automatic_shift(const TransmissionParams& p, TransmissionState& s,
                     double input_speed) noexcept {
  if (s.gear < 1 || s.since_shift < p.shift_latency) return;
  const double w = std::abs(input_speed);
  const int top = static_cast<int>(p.forward_count);
  // AutoSim §4.4.5: up-shift at the up-shift rpm until the top gear; down-shift at the
  // minimum rpm until the first gear.
  if (w > p.upshift_speed && s.gear < top) {
    change_gear(s, s.gear + 1);
  } else if (w < p.downshift_speed && s.gear > 1) {
    change_gear(s, s.gear - 1);
  }
}

}  // namespace

TransmissionState transmission_initial_state(const TransmissionParams& p) noexcept {
  return {.gear = p.mode == ShiftMode::automatic ? 1 : 0};
}

double gear_ratio(const TransmissionParams& p, int gear) noexcept {
  if (gear == -1) return -p.reverse_ratio;
  if (gear >= 1 && gear <= static_cast<int>(p.forward_count)) {
    return p.forward_ratios[static_cast<std::size_t>(gear - 1)];
  }
  return 0.0;
}

void transmission_update(const TransmissionParams& p, TransmissionState& s, bool up, bool down,
                         double input_speed, double dt) noexcept {
  const bool up_press = up && !s.up_held;
  const bool down_press = down && !s.down_held;
  s.up_held = up;
  s.down_held = down;
  s.since_shift += dt;
  if (p.mode == ShiftMode::manual) {
    manual_levers(p, s, up_press, down_press);
  } else {
    automatic_levers(s, up_press, down_press);
    automatic_shift(p, s, input_speed);
  }
}

double shift_engagement(const TransmissionParams& p, const TransmissionState& s) noexcept {
  if (p.shift_time <= 0.0) return 1.0;
  return std::clamp(s.since_shift / p.shift_time, 0.0, 1.0);
}

}  // namespace hil::models
