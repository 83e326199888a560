#pragma once
// One value per wheel slot (kMaxWheels, models/chassis/chassis.hpp): wheel speeds, drive torques,
// duties. Slots beyond the vehicle's wheel count are ignored.

#include <array>

#include "models/chassis/chassis.hpp"

namespace hil::models {

using WheelValues = std::array<double, kMaxWheels>;

}  // namespace hil::models
