// Setup-phase validation of the drive parameter sets (models/drive/drive_validation.hpp): the
// shipped sets pass, bad values are refused with the field named.

#include "models/drive/drive_validation.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "models/drive/electric_drive_params.hpp"
#include "models/drive/powertrain_params.hpp"

namespace hil::models {
namespace {

template <class Params, class Validate>
std::string error_of(const Params& p, Validate validate) {
  try {
    validate(p);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(DriveValidation, ShippedParameterSetsAreValid) {
  EXPECT_NO_THROW(validate_electric_drive(ravon_drive_params()));
  EXPECT_NO_THROW(validate_powertrain(hmmwv_powertrain()));
  EXPECT_NO_THROW(validate_powertrain(autosim_car_powertrain(ShiftMode::manual)));
  EXPECT_NO_THROW(validate_powertrain(autosim_car_powertrain(ShiftMode::automatic)));
}

TEST(DriveValidation, ElectricDriveErrorsNameTheField) {
  ElectricDriveParams p = ravon_drive_params();
  p.units[2].motor.inductance = 0.0;
  EXPECT_EQ(error_of(p, validate_electric_drive),
            "electric drive: units[2].motor.inductance must be > 0 (got 0.000000)");
  p = ravon_drive_params();
  p.units[5].motor.inductance = 0.0;  // beyond motor_count: unused, accepted
  EXPECT_EQ(error_of(p, validate_electric_drive), "");
  p.motor_count = 9;
  EXPECT_NE(error_of(p, validate_electric_drive).find("motor_count"), std::string::npos);
  p = ravon_drive_params();
  p.converter.efficiency = 1.2;
  EXPECT_NE(error_of(p, validate_electric_drive).find("converter.efficiency"), std::string::npos);
  p = ravon_drive_params();
  p.controller_decimation = 0;
  EXPECT_NE(error_of(p, validate_electric_drive).find("controller_decimation"), std::string::npos);
  p = ravon_drive_params();
  p.battery.capacity = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(error_of(p, validate_electric_drive).find("battery.capacity"), std::string::npos);
}

TEST(DriveValidation, PowertrainErrorsNameTheField) {
  PowertrainParams p = autosim_car_powertrain();
  p.transmission.forward_ratios[3] = 1.5;  // not below gear 3's 1.4
  EXPECT_NE(error_of(p, validate_powertrain).find("transmission.forward_ratios[3]"),
            std::string::npos);
  p = autosim_car_powertrain();
  p.transmission.downshift_speed = 300.0;  // 4000 rev/min·2.1/3.6 = 244 rad/s: would hunt
  EXPECT_NE(error_of(p, validate_powertrain).find("lands above downshift_speed"),
            std::string::npos);
  p = autosim_car_powertrain(ShiftMode::manual);
  p.transmission.downshift_speed = 300.0;  // manual: the thresholds do not shift, so no
  p.transmission.upshift_speed = 400.0;    // hunting check (they must still be ordered)
  EXPECT_EQ(error_of(p, validate_powertrain), "");
  p = hmmwv_powertrain();
  p.driven = {};
  EXPECT_NE(error_of(p, validate_powertrain).find("driven"), std::string::npos);
  p = autosim_car_powertrain();
  p.clutch.engage_full_speed = p.clutch.engage_start_speed;
  EXPECT_NE(error_of(p, validate_powertrain).find("clutch.engage_full_speed"), std::string::npos);
  p = hmmwv_powertrain();
  p.torque_converter.coupling_band = 0.0;
  EXPECT_NE(error_of(p, validate_powertrain).find("torque_converter.coupling_band"),
            std::string::npos);
}

}  // namespace
}  // namespace hil::models
