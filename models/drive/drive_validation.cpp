#include "models/drive/drive_validation.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace hil::models {

namespace {

/// Throws "<what>: <field> must be <rule> (got <value>)" unless ok.
class Checker {
 public:
  explicit Checker(const char* what) : what_(what) {}
  void operator()(bool ok, const std::string& field, const char* rule, double value) const {
    if (ok && std::isfinite(value)) return;
    throw std::invalid_argument(std::string(what_) + ": " + field + " must be " + rule + " (got " +
                                std::to_string(value) + ")");
  }

 private:
  const char* what_;
};

void check_unit(const Checker& check, const DriveUnitParams& u, const std::string& at) {
  const DcMotorParams& m = u.motor;
  check(m.resistance > 0.0, at + ".motor.resistance", "> 0", m.resistance);
  check(m.inductance > 0.0, at + ".motor.inductance", "> 0", m.inductance);
  check(m.torque_constant > 0.0, at + ".motor.torque_constant", "> 0", m.torque_constant);
  check(m.rotor_inertia >= 0.0, at + ".motor.rotor_inertia", ">= 0", m.rotor_inertia);
  check(m.viscous_friction >= 0.0, at + ".motor.viscous_friction", ">= 0", m.viscous_friction);
  check(m.coulomb_friction >= 0.0, at + ".motor.coulomb_friction", ">= 0", m.coulomb_friction);
  check(m.coulomb_speed > 0.0, at + ".motor.coulomb_speed", "> 0", m.coulomb_speed);
  check(u.gear.ratio > 0.0, at + ".gear.ratio", "> 0", u.gear.ratio);
  check(u.gear.efficiency > 0.0 && u.gear.efficiency <= 1.0, at + ".gear.efficiency", "in (0, 1]",
        u.gear.efficiency);
  const CascadeControllerParams& c = u.controller;
  check(c.speed.kp >= 0.0, at + ".controller.speed.kp", ">= 0", c.speed.kp);
  check(c.speed.ki >= 0.0, at + ".controller.speed.ki", ">= 0", c.speed.ki);
  check(c.current.kp >= 0.0, at + ".controller.current.kp", ">= 0", c.current.kp);
  check(c.current.ki >= 0.0, at + ".controller.current.ki", ">= 0", c.current.ki);
  check(c.current_limit > 0.0, at + ".controller.current_limit", "> 0", c.current_limit);
}

void check_table(const Checker& check, const LookupTable& t, const char* field) {
  check(t.size() > 0, field, "a table with at least one point", static_cast<double>(t.size()));
}

}  // namespace

void validate_electric_drive(const ElectricDriveParams& p) {
  const Checker check("electric drive");
  check(p.motor_count <= kMaxWheels, "motor_count", "<= 8", static_cast<double>(p.motor_count));
  for (std::size_t j = 0; j < p.motor_count; ++j) {
    check_unit(check, p.units[j], "units[" + std::to_string(j) + "]");
  }
  const ConverterParams& c = p.converter;
  check(c.efficiency > 0.0 && c.efficiency <= 1.0, "converter.efficiency", "in (0, 1]",
        c.efficiency);
  check(c.max_regen_current >= 0.0 || std::isinf(c.max_regen_current),
        "converter.max_regen_current", ">= 0",
        std::isinf(c.max_regen_current) ? 0.0 : c.max_regen_current);
  const BatteryParams& b = p.battery;
  check(b.e0 > 0.0, "battery.e0", "> 0", b.e0);
  check(b.k >= 0.0, "battery.k", ">= 0", b.k);
  check(b.a >= 0.0, "battery.a", ">= 0", b.a);
  check(b.b >= 0.0, "battery.b", ">= 0", b.b);
  check(b.r >= 0.0, "battery.r", ">= 0", b.r);
  check(b.capacity > 0.0, "battery.capacity", "> 0", b.capacity);
  check(b.response_time > 0.0, "battery.response_time", "> 0", b.response_time);
  check(b.cutoff_voltage >= 0.0, "battery.cutoff_voltage", ">= 0", b.cutoff_voltage);
  check(p.controller_decimation >= 1, "controller_decimation", ">= 1",
        static_cast<double>(p.controller_decimation));
}

void validate_powertrain(const PowertrainParams& p) {
  const Checker check("powertrain");
  const EngineParams& e = p.engine;
  check_table(check, e.full_load_torque, "engine.full_load_torque");
  check(e.inertia > 0.0, "engine.inertia", "> 0", e.inertia);
  check(e.idle_speed >= 0.0, "engine.idle_speed", ">= 0", e.idle_speed);
  check(e.idle_gain >= 0.0, "engine.idle_gain", ">= 0", e.idle_gain);
  check(e.rev_limit > e.idle_speed, "engine.rev_limit", "> engine.idle_speed", e.rev_limit);
  check(e.rev_limit_band > 0.0, "engine.rev_limit_band", "> 0", e.rev_limit_band);
  if (p.coupling == PowertrainCoupling::torque_converter) {
    const TorqueConverterParams& tc = p.torque_converter;
    check_table(check, tc.capacity_factor, "torque_converter.capacity_factor");
    check_table(check, tc.torque_ratio, "torque_converter.torque_ratio");
    for (std::size_t k = 0; k < tc.capacity_factor.size(); ++k) {
      check(tc.capacity_factor.y(k) > 0.0,
            "torque_converter.capacity_factor[" + std::to_string(k) + "]", "> 0",
            tc.capacity_factor.y(k));
    }
    check(tc.coupling_band > 0.0 && tc.coupling_band < 0.5, "torque_converter.coupling_band",
          "in (0, 0.5)", tc.coupling_band);
  } else {
    const ClutchParams& c = p.clutch;
    check(c.spring.stiffness > 0.0, "clutch.spring.stiffness", "> 0", c.spring.stiffness);
    check(c.spring.damping > 0.0, "clutch.spring.damping", "> 0", c.spring.damping);
    check(c.max_torque >= 0.0, "clutch.max_torque", ">= 0", c.max_torque);
    check(c.engage_full_speed > c.engage_start_speed, "clutch.engage_full_speed",
          "> clutch.engage_start_speed", c.engage_full_speed);
  }
  const TransmissionParams& t = p.transmission;
  const std::size_t n = t.forward_count;
  check(n >= 1 && n <= TransmissionParams::kMaxForwardGears, "transmission.forward_count",
        "in [1, 10]", static_cast<double>(n));
  for (std::size_t g = 0; g < n; ++g) {
    const std::string at = "transmission.forward_ratios[" + std::to_string(g) + "]";
    const double r = t.forward_ratios[g];
    check(r > 0.0, at, "> 0", r);
    if (g > 0) check(r < t.forward_ratios[g - 1], at, "< the gear below it", r);
    const bool automatic = t.mode == ShiftMode::automatic;
    if (automatic && g > 0) {
      // After an up-shift at upshift_speed the input turns at upshift·r_g/r_(g−1).
      const double landing = t.upshift_speed * r / t.forward_ratios[g - 1];
      check(landing > t.downshift_speed, at, "such that an up-shift lands above downshift_speed",
            landing);
    }
  }
  check(t.reverse_ratio > 0.0, "transmission.reverse_ratio", "> 0", t.reverse_ratio);
  check(t.final_drive > 0.0, "transmission.final_drive", "> 0", t.final_drive);
  check(t.efficiency > 0.0 && t.efficiency <= 1.0, "transmission.efficiency", "in (0, 1]",
        t.efficiency);
  check(t.downshift_speed > 0.0, "transmission.downshift_speed", "> 0", t.downshift_speed);
  check(t.upshift_speed > t.downshift_speed, "transmission.upshift_speed",
        "> transmission.downshift_speed", t.upshift_speed);
  check(t.shift_latency >= 0.0, "transmission.shift_latency", ">= 0", t.shift_latency);
  check(t.shift_time >= 0.0, "transmission.shift_time", ">= 0", t.shift_time);
  check(p.input_inertia >= 0.0, "input_inertia", ">= 0", p.input_inertia);
  check(p.output_inertia > 0.0, "output_inertia", "> 0", p.output_inertia);
  check(p.driveshaft.stiffness > 0.0, "driveshaft.stiffness", "> 0", p.driveshaft.stiffness);
  check(p.driveshaft.damping > 0.0, "driveshaft.damping", "> 0", p.driveshaft.damping);
  int driven = 0;
  for (const bool d : p.driven) driven += d ? 1 : 0;
  check(driven > 0, "driven", "at least one wheel slot", driven);
}

}  // namespace hil::models
