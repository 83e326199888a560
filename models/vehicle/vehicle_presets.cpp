#include "models/vehicle/vehicle_presets.hpp"

#include "models/drive/electric_drive_params.hpp"
#include "models/drive/powertrain_params.hpp"

namespace hil::models {

VehicleParams ravon_params() {
  VehicleParams p;
  // 750 kg in all (RRLab's published figure), 4 × 40 kg unsprung (wheel, Cyclo gear, motor)
  p.sprung.mass = 590.0;
  // Box of 2.35 × 1.4 × 1.0 m (length, width, body height): I = m/12·(a² + b²)
  p.sprung.inertia = Eigen::Vector3d(145.0, 321.0, 368.0).asDiagonal();
  p.axle_count = 2;
  for (std::size_t a = 0; a < 2; ++a) {
    AxleParams& axle = p.axles[a];
    axle.x = a == 0 ? 0.603 : -0.603;  // RAVON §3.3: wheelbase 1.206 m, CG assumed centred
    axle.track = 1.156;                // RAVON §3.3
    axle.z = -0.29;                    // CG 0.6 m above ground, wheel centres at r ≈ 0.31 m
    axle.unsprung_mass = 40.0;
    axle.spring_rate = 13'000.0;  // 1.5 Hz body bounce on 147 kg per corner
    axle.damping = 1'100.0;       // ζ ≈ 0.4
    axle.tire.width = 0.254;      // 25×10-12 ATV tire (assumption)
    axle.tire.diameter = 0.635;
    axle.tire.section_height = 0.15;
    axle.tire.vertical_stiffness = 150'000.0;
    axle.tire.vertical_damping = 1'000.0;
    axle.tire.spin_inertia = 0.8;
    axle.tire.rolling_resistance = 0.03;  // knobbly off-road tire
    axle.steering.steered = true;
    axle.steering.ackermann = {.b = 0.603, .track = 1.156, .max_wheel_angle = 0.6};  // 4WS: b = L/2
    axle.steering.behind_turning_centre = a == 1;
    axle.steering.servo = {.time_constant = 0.1, .max_rate = 0.5, .max_angle = 0.5};
    axle.brake.max_torque = 0.0;     // no friction brakes: the motors brake
    axle.brake.park_torque = 600.0;  // motor holding brake ≈ 10 N·m × 59 (assumption)
    axle.driven = true;              // RAVON §3.4: one motor per wheel
  }
  p.aero = {.air_density = 1.225,
            .drag_coefficient = 1.0,
            .frontal_area = 2.0,
            .side_force_coefficient = 1.0,
            .side_area = 3.5,
            .x_cp = 0.0};
  p.drive.kind = DriveKind::electric;  // RAVON §3.4: a DC motor and a 1:59 gear per wheel
  p.drive.electric = ravon_drive_params();
  p.drive.initial_soc = 0.9;
  return p;
}

VehicleParams hmmwv_params() {
  VehicleParams p;
  p.sprung.mass = 2'300.0;  // ≈ 2600 kg in all with 4 × 75 kg unsprung
  p.sprung.inertia = Eigen::Vector3d(1'200.0, 4'200.0, 4'700.0).asDiagonal();
  p.axle_count = 2;
  for (std::size_t a = 0; a < 2; ++a) {
    AxleParams& axle = p.axles[a];
    axle.x = a == 0 ? 1.633 : -1.745;  // wheelbase 3.378 m, CG 1.633 m behind the front axle
    axle.track = 1.819;
    axle.z = -0.45;  // CG ≈ 0.92 m above ground
    axle.unsprung_mass = 75.0;
    axle.spring_rate = a == 0 ? 60'000.0 : 70'000.0;  // wheel rates, ≈ 1.6 Hz
    axle.damping = 6'000.0;
    axle.tire = TireParams{};  // 37×12.5R16.5: width 0.318, diameter 0.94, h 0.20
    axle.tire.rolling_resistance = 0.015;
    axle.brake.max_torque = 4'000.0;
    axle.brake.park_torque = 2'500.0;
    axle.driven = true;
  }
  AxleSteeringParams& steer = p.axles[0].steering;
  steer.steered = true;
  steer.ackermann = {.b = 3.378, .track = 1.819, .max_wheel_angle = 0.7};  // front-only: b = L
  steer.servo = {.time_constant = 0.05, .max_rate = 1.0, .max_angle = 0.6};
  p.aero = {.air_density = 1.225,
            .drag_coefficient = 0.7,
            .frontal_area = 3.6,
            .side_force_coefficient = 1.0,
            .side_area = 8.0,
            .x_cp = 0.2};
  p.drive.kind = DriveKind::combustion;  // M998: diesel, torque converter, 3-speed, 4WD
  p.drive.combustion = hmmwv_powertrain();
  return p;
}

}  // namespace hil::models
