// The RAVON rig in the loop, in process and in virtual time: an ECU on the other end of its
// virtual CAN bus sends wheel-speed references; the vehicle follows them, and when the ECU
// goes silent the timeout puts it in its safe state and it comes to rest.

#include "runtime/rig.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <climits>
#include <cmath>

#include "io/can/mapping/can_bus_mirror.hpp"
#include "rt_core/clock.hpp"
#include "rt_core/executive.hpp"

namespace hil::runtime {
namespace {

/// Watches the rig: the tick the timeout rose, and the vehicle's speed at a given tick.
class Probe final : public rt::Stage {
 public:
  Probe(Rig& rig, std::int64_t at)
      : rig_(rig), timeout_(rig.table().resolve("can.ecu.ecu_speed_ref.timeout")), at_(at) {}
  void run(const rt::TickContext& c) noexcept override {
    if (timeout_rose < 0 && rig_.table().get(timeout_) == 1.0) timeout_rose = c.tick;
    if (c.tick == at_) speed_at = rig_.vehicle()->outputs().velocity_body.x();
  }
  std::int64_t timeout_rose = -1;
  double speed_at = 0.0;

 private:
  Rig& rig_;
  rt::ChannelId timeout_;
  std::int64_t at_;
};

/// A scripted ECU: the mirrored bus on its own channel table, commands set by the test.
class ScriptedEcu {
 public:
  explicit ScriptedEcu(const io::can::CanBusSpec& rig_bus) {
    const io::can::CanBusSpec spec = io::can::mirror(rig_bus);
    io::can::add_mirror_channels(spec, table_);
    std::vector<io::can::MappingProblem> problems;
    bus_ = io::can::CanBus::create(spec, table_, 250e-6, 0, problems);
    if (!bus_) throw std::runtime_error(problems.front().field + ": " + problems.front().message);
    table_.freeze();
    for (const char* w : {"fl", "fr", "rl", "rr"}) {
      refs_.push_back(table_.resolve(fmt::format("vehicle.wheel.{}.speed_ref", w)));
    }
    wheel_speed_ = table_.resolve("vehicle.wheel.fl.speed");
  }
  void receive(std::int64_t tick) noexcept { bus_->read(tick, table_); }
  void drive(std::int64_t /*tick*/) noexcept {
    for (const rt::ChannelId id : refs_) table_.set(id, speed_ref);
  }
  void send(std::int64_t tick) noexcept {
    if (tick < silent_from) bus_->write(tick, table_);
  }
  [[nodiscard]] double wheel_speed_seen() const noexcept { return table_.get(wheel_speed_); }

  double speed_ref = 0.0;
  std::int64_t silent_from = INT64_MAX;  ///< the ECU stops sending at this tick

 private:
  rt::ChannelTable table_;
  std::unique_ptr<io::can::CanBus> bus_;
  std::vector<rt::ChannelId> refs_;
  rt::ChannelId wheel_speed_{};

 public:
  rt::MethodStage<&ScriptedEcu::receive> rx{*this};
  rt::MethodStage<&ScriptedEcu::drive> update{*this};
  rt::MethodStage<&ScriptedEcu::send> tx{*this};
};

TEST(Rig, RavonFollowsTheEcuAndStopsWhenItGoesSilent) {
  const config::LoadResult loaded =
      config::load_rig_config(HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  ASSERT_TRUE(loaded.ok());
  config::RigSpec settings = *loaded.settings;
  settings.can[0].uri = "virtual:rig_runtime_test";
  Rig rig(settings);
  ScriptedEcu ecu(settings.can[0]);
  constexpr std::int64_t kSilent = 24'000;  // the ECU talks for 6 s
  Probe probe(rig, kSilent - 1);
  TickPlan plan;
  rig.add_stages(plan);
  plan.add(Slot::peer_rx, "ecu_rx", ecu.rx);
  plan.add(Slot::peer_update, "ecu", ecu.update);
  plan.add(Slot::peer_tx, "ecu_tx", ecu.tx);
  plan.add(Slot::record, "probe", probe);
  rt::VirtualClock clock;
  rt::Executive exec(settings.executive, plan.entries(), clock);

  const double r = 0.5 * settings.vehicle->axles[0].tire.diameter - 0.012;  // loaded radius
  ecu.speed_ref = 1.0 / r;                                                  // 1 m/s
  ecu.silent_from = kSilent;
  ASSERT_EQ(exec.run(kSilent + 4000 * 5).ticks, kSilent + 20'000);

  EXPECT_NEAR(probe.speed_at, 1.0, 0.02);  // within 2 % of what the ECU commands
  // The last ECU_SpeedRef went out at tick 23 920 (every 80 ticks), was applied one tick
  // later; 3 cycles (240 ticks) of silence raise the timeout
  EXPECT_EQ(probe.timeout_rose, 23'921 + 240 + 1);
  EXPECT_EQ(rig.table().get(rig.table().resolve("vehicle.brake.park")), 1.0);
  EXPECT_LT(std::abs(rig.vehicle()->outputs().velocity_body.x()), 0.01);  // at rest
  EXPECT_NEAR(ecu.wheel_speed_seen(), 0.0, 0.01);                         // and the ECU saw it stop
}

TEST(Rig, TheVehicleIsThreeStagesAndItsControllersRunAtTheirDecimation) {
  const config::LoadResult loaded =
      config::load_rig_config(HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  ASSERT_TRUE(loaded.ok());
  config::RigSpec settings = *loaded.settings;
  settings.can[0].uri = "virtual:rig_stages_test";
  settings.vehicle->drive.electric.controller_decimation = 4;  // 1 kHz at a 4 kHz loop
  Rig rig(settings);
  TickPlan plan;
  rig.add_stages(plan);
  std::vector<std::string> models;
  for (const rt::StageEntry& e : plan.entries()) {
    if (e.phase != rt::Phase::update) continue;
    models.push_back(e.name);
    EXPECT_EQ(e.decimation, e.name == "drive_control" ? 4U : 1U) << e.name;
  }
  EXPECT_EQ(models, (std::vector<std::string>{"vehicle_inputs", "drive_control", "vehicle"}));
}

}  // namespace
}  // namespace hil::runtime
