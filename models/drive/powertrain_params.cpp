#include "models/drive/powertrain_params.hpp"

#include <array>
#include <cstddef>
#include <numbers>
#include <span>
#include <utility>

#include "models/drive/drive_validation.hpp"

namespace hil::models {

namespace {

constexpr double kRpm = 2.0 * std::numbers::pi / 60.0;  // [rad/s] per rev/min

}  // namespace

PowertrainParams hmmwv_powertrain() {
  PowertrainParams p;
  // M998 HMMWV: GM/Detroit Diesel 6.2 L V8, 150 hp (112 kW) at 3600 rev/min (US Army fact
  // file, fs-ortego78.tripod.com/hmmwv.htm), 250 lb·ft (339 N·m) peak (thegunzone.com; the
  // rev/min of the peak is assumed), governed at 3600 rev/min (Detroit Diesel V8, Wikipedia:
  // maximum engine speed 3600). Between the two published points the curve's shape is assumed.
  // Brake torque at full load [rev/min → N·m]; the table below adds the friction back, so that
  // T_full + T_loss is the published flywheel torque.
  p.engine.loss_torque = {{-50 * kRpm, 30},   {0, 0},
                          {50 * kRpm, -30},   {1000 * kRpm, -50},
                          {2000 * kRpm, -70}, {3000 * kRpm, -90}};  // Chrono HMMWV losses map
  constexpr std::array<std::pair<double, double>, 11> kBrake{{{800, 220},
                                                              {1000, 265},
                                                              {1200, 295},
                                                              {1400, 315},
                                                              {1600, 330},
                                                              {2000, 339},  // 250 lb·ft
                                                              {2400, 335},
                                                              {2800, 325},
                                                              {3200, 312},
                                                              {3600, 297},  // 150 hp
                                                              {3700, 294}}};
  std::array<std::pair<double, double>, kBrake.size() + 1> full{};
  full[0] = {-100 * kRpm, 300};  // Chrono's point "to start engine" (negative speeds)
  for (std::size_t k = 0; k < kBrake.size(); ++k) {
    const double w = kBrake[k].first * kRpm;
    full[k + 1] = {w, kBrake[k].second - p.engine.loss_torque(w)};
  }
  p.engine.full_load_torque = LookupTable(std::span<const std::pair<double, double>>(full));
  p.engine.inertia = 1.1;            // Chrono crankshaft inertia
  p.engine.idle_speed = 800 * kRpm;  // assumed (Chrono's map starts at 800)
  p.engine.idle_gain = 0.1;          // assumed governor gain
  // Full load up to the rated 3600 rev/min, fuel cut to 0 at 3700 (the governor's droop to
  // high idle: assumed; the band is Chrono's 100 rev/min).
  p.engine.rev_limit = 3700 * kRpm;
  p.engine.rev_limit_band = 100 * kRpm;

  p.coupling = PowertrainCoupling::torque_converter;
  // Chrono HMMWV torque-converter maps (capacity factor K in rad/s/√(N·m), torque ratio).
  p.torque_converter.capacity_factor = {{0.0, 15},  {0.25, 15}, {0.50, 15},
                                        {0.75, 16}, {0.90, 18}, {1.00, 35}};
  p.torque_converter.torque_ratio = {
      {0.0, 2.00}, {0.25, 1.80}, {0.50, 1.50}, {0.75, 1.15}, {1.00, 1.00}};

  TransmissionParams& t = p.transmission;
  // M998: GM Turbo-Hydramatic 400, three forward gears (Army correspondence course OD1615,
  // "compound planetary gear set gives three forward ratios"): 2.48, 1.48, 1.00, the 4L80-E's
  // first three (GM 4L80-E, Wikipedia; onallcylinders.com 2018: "the original first three gear
  // ratios are in fact still the same as the TH-400"). Reverse: the 4L80-E's 2.07 (assumed
  // the TH400's).
  t.forward_ratios = {2.48, 1.48, 1.00};
  t.forward_count = 3;
  t.reverse_ratio = 2.07;
  // Transfer case (New Process 218, high range) 1.00 (assumed direct drive) × differentials
  // 2.73 (assumed: no public figure found) × geared hubs 1.92 (OD1615: "a lower gear ratio
  // (1.92:1)").
  t.final_drive = 1.00 * 2.73 * 1.92;
  t.efficiency = 1.0;  // lossless gears as Chrono's; the engine's losses map holds the friction
  t.mode = ShiftMode::automatic;
  t.upshift_speed = 3000 * kRpm;    // assumed: at full load, short of the governed speed
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
