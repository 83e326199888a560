// The built-in ECU's HUMAN mode (docs/ecu.md "HUMAN mode"), in the loop on the shipped rigs and
// the double lane change, the driver's channels written through the run's command queue as the
// console and a joystick write them: steered left the vehicle turns left (positive yaw rate),
// right it turns right; the throttle takes it faster than the scenario's 1 m/s, the brake stops
// it; driver.mode back to AUTO and the path follower finds the path again and brings the vehicle
// back onto it at the plan's speed. RAVON's electric drive (a speed demand) and the HMMWV's
// combustion drive (the pedals).

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "config/scenario/scenario_spec.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::ecu {
namespace {

constexpr std::int64_t kTicksPerSecond = 4000;  // both rigs: 250 µs

class InTheLoop {
 public:
  explicit InTheLoop(const std::string& rig) {
    static int runs = 0;
    config::ScenarioLoadResult loaded =
        config::load_scenario(HIL_SOURCE_DIR "/hil_rigs/scenarios/double_lane_change.pbtxt",
                              HIL_SOURCE_DIR "/hil_rigs/" + rig + "/rig.pbtxt");
    if (!loaded.ok()) throw std::runtime_error("the scenario does not load");
    loaded.rig->can[0].uri = "virtual:human_mode_" + rig + std::to_string(++runs);
    run_ =
        session::RunBuilder({.loaded = session::LoadedRig{.name = rig,
                                                          .settings = std::move(*loaded.rig),
                                                          .scenario = std::move(loaded.scenario)},
                             .clock = {.speed = {.mode = session::Speed::Mode::max}, .no_rt = true},
                             .quiet = true})
            .build();
  }
  /// Runs `seconds` more.
  void run(double seconds) {
    ticks_ += std::llround(seconds * kTicksPerSecond);
    ASSERT_EQ(run_->run_until(ticks_).ticks, ticks_);
    (void)run_->commands->take_applied();
  }
  void write(const std::string& channel, double value) {
    (void)run_->commands->write(channel, value);
  }
  void release(const std::string& channel) { (void)run_->commands->release(channel); }
  [[nodiscard]] double get(const std::string& channel) const {
    return run_->rig->table().get(run_->rig->table().resolve(channel));
  }
  [[nodiscard]] const Driver& driver() const { return run_->ecu->driver(); }

 private:
  std::unique_ptr<session::Run> run_;
  std::int64_t ticks_ = 0;
};

TEST(HumanMode, SteeredLeftRavonTurnsLeftAndRightRight) {
  InTheLoop loop("ravon");
  loop.run(3.0);  // AUTO: away at the plan's 1 m/s
  EXPECT_FALSE(loop.driver().human());
  loop.write("driver.mode", 1);
  loop.write("driver.throttle", 0.7);
  loop.write("driver.steer", 0.5);
  loop.run(3.0);
  EXPECT_TRUE(loop.driver().human());
  EXPECT_GT(loop.get("vehicle.body.yaw_rate"), 0.1);  // left [rad/s]
  EXPECT_GT(loop.get("vehicle.body.forward_speed"), 0.5);
  loop.write("driver.steer", -0.5);
  loop.run(3.0);
  EXPECT_LT(loop.get("vehicle.body.yaw_rate"), -0.1);
}

TEST(HumanMode, TheThrottleSpeedsRavonUpAndTheBrakeStopsIt) {
  InTheLoop loop("ravon");
  loop.run(4.0);
  const double auto_speed = loop.get("vehicle.body.forward_speed");
  EXPECT_NEAR(auto_speed, 1.0, 0.1);
  loop.write("driver.mode", 1);
  loop.write("driver.throttle", 1);  // max_speed 1.4 m/s
  loop.run(4.0);
  EXPECT_GT(loop.get("vehicle.body.forward_speed"), 1.25);
  EXPECT_NEAR(loop.driver().status().speed_target, 1.4, 1e-9);
  loop.write("driver.throttle", 0);
  loop.write("driver.brake", 1);
  loop.run(3.0);
  EXPECT_LT(std::abs(loop.get("vehicle.body.forward_speed")), 0.05);
  EXPECT_EQ(loop.get("vehicle.brake.park"), 1.0);  // stopped with nothing asked: held
}

TEST(HumanMode, BackToAutoTheFollowerFindsThePathAgain) {
  InTheLoop loop("ravon");
  loop.run(3.0);
  EXPECT_LT(std::abs(loop.driver().status().cross_track), 0.05);
  loop.write("driver.mode", 1);
  loop.write("driver.throttle", 0.7);
  loop.write("driver.steer", 0.6);
  loop.run(2.5);
  loop.write("driver.steer", 0);  // off the path, heading away from it
  loop.run(1.0);
  // the wheel given back as the driver input does it: its controls released, the mode last
  for (const char* c : {"driver.steer", "driver.throttle", "driver.mode"}) loop.release(c);
  loop.run(0.1);
  EXPECT_FALSE(loop.driver().human());
  EXPECT_EQ(loop.get("driver.mode"), 0.0);
  const double away = std::abs(loop.driver().status().cross_track);
  EXPECT_GT(away, 0.5);  // the driver took it well off the path
  loop.run(15.0);
  EXPECT_LT(std::abs(loop.driver().status().cross_track), 0.1 * away);  // back on it
  EXPECT_NEAR(loop.get("vehicle.body.forward_speed"), 1.0, 0.1);        // at the plan's speed
}

TEST(HumanMode, TheHmmwvsPedalsDriveItsCombustionDrive) {
  InTheLoop loop("hmmwv");
  loop.run(3.0);
  const double auto_speed = loop.get("vehicle.body.forward_speed");
  loop.write("driver.mode", 1);
  loop.write("driver.throttle", 0.5);
  loop.write("driver.steer", 0.3);
  loop.run(4.0);
  EXPECT_GE(loop.get("vehicle.powertrain.throttle"), 0.5);  // the pedal, over what idle asks
  EXPECT_GT(loop.get("vehicle.body.forward_speed"), auto_speed + 1.0);
  EXPECT_GT(loop.get("vehicle.body.yaw_rate"), 0.05);
  loop.write("driver.throttle", 0);
  loop.write("driver.brake", 1);
  loop.run(0.5);
  EXPECT_EQ(loop.get("vehicle.brake.command"), 1.0);
  EXPECT_EQ(loop.get("vehicle.powertrain.throttle"), 0.0);
}

}  // namespace
}  // namespace hil::ecu
