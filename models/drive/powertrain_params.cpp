#include "models/drive/powertrain_params.hpp"

#include <numbers>

#include "models/drive/drive_validation.hpp"

namespace hil::models {

namespace {

constexpr double kRpm = 2.0 * std::numbers::pi / 60.0;  // [rad/s] per rev/min

}  // namespace

PowertrainParams hmmwv_powertrain() {
  PowertrainParams p;
  // Chrono HMMWV_EngineShafts / HMMWV_Powertrain: full-load map [rev/min → N·m] (the point at
  // −100 rev/min is Chrono's "to start engine"; 2700 rev/min fades the torque out).
  p.engine.full_load_torque = {
      {-100 * kRpm, 300}, {800 * kRpm, 382},  {900 * kRpm, 490},  {1000 * kRpm, 579},
      {1100 * kRpm, 650}, {1200 * kRpm, 706}, {1300 * kRpm, 746}, {1400 * kRpm, 774},
      {1500 * kRpm, 789}, {1600 * kRpm, 793}, {1700 * kRpm, 788}, {1800 * kRpm, 774},
      {1900 * kRpm, 754}, {2000 * kRpm, 728}, {2100 * kRpm, 697}, {2200 * kRpm, 664},
      {2300 * kRpm, 628}, {2400 * kRpm, 593}, {2500 * kRpm, 558}, {2700 * kRpm, -400}};
  // Chrono HMMWV engine losses map (friction and pumping).
  p.engine.loss_torque = {{-50 * kRpm, 30},   {0, 0},
                          {50 * kRpm, -30},   {1000 * kRpm, -50},
                          {2000 * kRpm, -70}, {3000 * kRpm, -90}};
  p.engine.inertia = 1.1;            // Chrono crankshaft inertia
  p.engine.idle_speed = 800 * kRpm;  // assumed: the lowest engine-map point
  p.engine.idle_gain = 0.1;          // assumed governor gain
  p.engine.rev_limit = 2700 * kRpm;  // Chrono map: torque faded out at 2700 rev/min
  p.engine.rev_limit_band = 100 * kRpm;

  p.coupling = PowertrainCoupling::torque_converter;
  // Chrono HMMWV torque-converter maps (capacity factor K in rad/s/√(N·m), torque ratio).
  p.torque_converter.capacity_factor = {{0.0, 15},  {0.25, 15}, {0.50, 15},
                                        {0.75, 16}, {0.90, 18}, {1.00, 35}};
  p.torque_converter.torque_ratio = {
      {0.0, 2.00}, {0.25, 1.80}, {0.50, 1.50}, {0.75, 1.15}, {1.00, 1.00}};

  TransmissionParams& t = p.transmission;
  // Chrono HMMWV gear ratios ω_out/ω_in 0.2, 0.4, 0.8 (reverse −0.1): reductions 5, 2.5, 1.25.
  t.forward_ratios = {5.0, 2.5, 1.25};
  t.forward_count = 3;
  t.reverse_ratio = 10.0;
  t.final_drive = 5.0;  // Chrono HMMWV_Driveline4WD conical gear ratio 0.2
  t.efficiency = 1.0;   // Chrono's shaft gears are lossless (losses are in the engine map)
  t.mode = ShiftMode::automatic;
  t.upshift_speed = 2500 * kRpm;    // Chrono HMMWV upshift rpm (turbine shaft)
  t.downshift_speed = 1200 * kRpm;  // Chrono HMMWV downshift rpm
  t.shift_latency = 1.0;            // Chrono HMMWV gear-shift latency
  t.shift_time = 0.0;               // torque converter: the gear changes at once

  p.input_inertia = 0.3;                                  // Chrono "ingear shaft" inertia
  p.output_inertia = 0.5;                                 // Chrono driveline driveshaft inertia
  p.driveshaft = {.stiffness = 1500.0, .damping = 60.0};  // assumed, docs: ~2.5 Hz shuffle
  p.driven = {true, true, true, true};  // Chrono HMMWV_Driveline4WD: all four wheels
  validate_powertrain(p);
  return p;
}

PowertrainParams autosim_car_powertrain(ShiftMode mode) {
  PowertrainParams p;
  // Documented curve (docs/models.md): a 1.6 L petrol engine, 150 N·m peak at 4000 rev/min,
  // standing in for AutoSim's "curve 1" (Figure 30 gives no numbers).
  p.engine.full_load_torque = {{0, 60},
                               {1000 * kRpm, 110},
                               {2000 * kRpm, 130},
                               {3000 * kRpm, 145},
                               {4000 * kRpm, 150},
                               {5000 * kRpm, 140},
                               {6000 * kRpm, 120},
                               {6500 * kRpm, 100},
                               {7000 * kRpm, 0}};
  p.engine.loss_torque = {{0, 0}, {1000 * kRpm, -8}, {3000 * kRpm, -15}, {6000 * kRpm, -30}};
  p.engine.inertia = 0.15;
  p.engine.idle_speed = 800 * kRpm;
  p.engine.idle_gain = 0.1;
  p.engine.rev_limit = 6500 * kRpm;
  p.engine.rev_limit_band = 200 * kRpm;

  p.coupling = PowertrainCoupling::clutch;
  p.clutch = {.spring = {.stiffness = 2000.0, .damping = 8.0},
              .max_torque = 300.0,
              .engage_start_speed = 1000 * kRpm,
              .engage_full_speed = 2000 * kRpm};

  TransmissionParams& t = p.transmission;
  t.forward_ratios = {3.6, 2.1, 1.4, 1.0, 0.8};
  t.forward_count = 5;    // AutoSim §4.4.5: "five gears in addition to a neutral"
  t.reverse_ratio = 3.6;  // AutoSim §4.4.5: reverse "similar to gear number 1"
  t.final_drive = 4.1;
  t.efficiency = 0.9;
  t.mode = mode;
  // AutoSim §4.4.5: up-shift "whenever rpm corresponding to the maximum achievable torque
  // value is reached"; down-shift at "the set minimum limit" (assumed 1500 rev/min).
  t.upshift_speed = p.engine.full_load_torque.argmax();
  t.downshift_speed = 1500 * kRpm;
  t.shift_latency = 0.5;
  t.shift_time = 0.3;

  p.input_inertia = 0.02;
  p.output_inertia = 0.05;
  p.driveshaft = {.stiffness = 600.0, .damping = 8.0};  // two half-shafts seen at the output
  p.driven = {true, true};  // front-wheel drive: slots 0 (front left) and 1 (front right)
  validate_powertrain(p);
  return p;
}

}  // namespace hil::models
