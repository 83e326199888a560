// The radar in the loop (runtime/sensors/radar_stage.hpp): the HMMWV with the perception
// overlay (hil_rigs/hmmwv/perception.pbtxt) and a car driving at it, in virtual time. A
// perception ECU's end of the radar's virtual bus receives, in the tick they were made, a
// status frame then one frame per object every 70 ms (280 ticks); decoded with the bus's DBC
// they give the car's distance and −v within the configured noise and one id throughout.
// Also: the overlay restates the rig's own bus unchanged (an overlay's list replaces the
// rig's), and the radar's errors in a rig file are located.

#include "runtime/sensors/radar_stage.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <vector>

#include "config/rig/loader.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "rt_core/clock.hpp"
#include "rt_core/executive.hpp"
#include "runtime/rig.hpp"

namespace hil::runtime {
namespace {

namespace dbc = io::can::dbc;

constexpr const char* kRig = HIL_SOURCE_DIR "/hil_rigs/hmmwv/rig.pbtxt";
constexpr const char* kOverlay = HIL_SOURCE_DIR "/hil_rigs/hmmwv/perception.pbtxt";

std::string errors_text(const config::ConfigErrors& errors) {
  std::string out;
  for (const config::ConfigError& e : errors) out += "\n" + e.to_string();
  return out;
}

config::RigSpec perception_rig() {
  const std::vector<std::filesystem::path> overlays{kOverlay};
  const config::LoadResult loaded = config::load_rig_config(kRig, overlays);
  if (!loaded.ok()) throw std::runtime_error(errors_text(loaded.errors));
  return *loaded.settings;
}

/// A car 100 m ahead driving at the rig at 10 m/s, from t = 0.
models::MovingObjectSpec oncoming_car() {
  models::MovingObjectSpec car;
  car.object = {.name = "car",
                .shape = models::ObjectShape::box,
                .kind = models::ObjectKind::vehicle,
                .length = 4.5,
                .width = 1.8,
                .height = 1.5,
                .rcs_dbsm = 10.0};
  car.start = {.x = 100.0, .y = 0.0, .yaw = M_PI};
  car.path = {{.x = 100.0, .y = 0.0, .speed = 10.0}, {.x = -100.0, .y = 0.0, .speed = 10.0}};
  car.max_acceleration = 100.0;  // at speed within 0.1 s
  return car;
}

/// The perception ECU's end of the radar's bus: every frame with the tick it arrived in.
class Listener final : public rt::Stage {
 public:
  Listener(const char* uri, const rt::ChannelTable& table)
      : link_(io::can::open_transport(uri)),
        table_(table),
        car_x_(table.resolve("world.car.x")),
        x_(table.resolve("vehicle.body.position.x")) {}
  void run(const rt::TickContext& c) noexcept override {
    std::array<io::can::TimedFrame, 128> in;
    const std::size_t n = link_->receive(in, c.tick);
    for (std::size_t i = 0; i < n; ++i) {
      frames.push_back({c.tick, in[i].frame, table_.get(car_x_) - table_.get(x_)});
    }
  }
  struct Heard {
    std::int64_t tick;
    io::can::CanFrame frame;
    double gap;  ///< the car's centre ahead of the CG in the tick (ground truth) [m]
  };
  std::vector<Heard> frames;

 private:
  std::unique_ptr<io::can::Transport> link_;
  const rt::ChannelTable& table_;
  rt::ChannelId car_x_, x_;
};

double decode(const dbc::CompiledMessage& m, const dbc::Message& spec, const char* signal,
              const io::can::CanFrame& f) {
  const dbc::Signal* s = spec.find_signal(signal);
  double v = NAN;
  const auto i = static_cast<std::size_t>(s - spec.signals.data());
  EXPECT_EQ(dbc::decode_signal(m.signals[i], f.payload(), v), dbc::SignalStatus::ok);
  return v;
}

TEST(RadarStage, APerceptionEcuReadsTheCarClosingAtMinusV) {
  config::RigSpec settings = perception_rig();
  ASSERT_EQ(settings.radars.size(), 1U);
  const std::size_t radar_bus = settings.radars[0].bus;
  settings.can[0].uri = "virtual:radar_stage_ecu";
  settings.can[radar_bus].uri = "virtual:radar_stage_radar";
  Rig rig(settings, {.objects = {oncoming_car()}});
  Listener ecu("virtual:radar_stage_radar", rig.table());
  ASSERT_EQ(rig.radars().size(), 1U);
  EXPECT_EQ(rig.radars()[0]->every_ticks(), 280U);  // 70 ms of 250 µs
  TickPlan plan;
  rig.add_stages(plan);
  plan.add(Slot::record, "ecu", ecu);
  rt::VirtualClock clock;
  rt::Executive exec(settings.executive, plan.entries(), clock);
  constexpr std::int64_t kTicks = 16'000;  // 4 s: the car from 100 m to 60 m
  ASSERT_EQ(exec.run(kTicks).ticks, kTicks);

  const dbc::Database& db = settings.can[radar_bus].database;
  const dbc::Message& status = *db.find_message("Radar_ObjectListStatus");
  const dbc::Message& general = *db.find_message("Radar_ObjectGeneral");
  const dbc::CompiledMessage cs = dbc::compile(status);
  const dbc::CompiledMessage cg = dbc::compile(general);
  const double sigma_d = settings.radars[0].params.distance_noise;
  const double sigma_v = settings.radars[0].params.velocity_noise;
  const double mount_x = settings.radars[0].params.mount.position.x();

  std::size_t cycles = 0;
  int first_id = -1;
  for (std::size_t i = 0; i < ecu.frames.size();) {
    const auto& head = ecu.frames[i];
    ASSERT_EQ(head.frame.id, status.id) << "a cycle starts with the status, frame " << i;
    EXPECT_EQ(head.tick % 280, 0) << "frames go out in the tick of the cycle";
    EXPECT_EQ(decode(cs, status, "Obj_MeasCounter", head.frame), static_cast<double>(cycles));
    const double n = decode(cs, status, "Obj_NofObjects", head.frame);
    ASSERT_EQ(n, 1.0);  // the car; nothing else in the world
    const auto& obj = ecu.frames.at(i + 1);
    ASSERT_EQ(obj.frame.id, general.id);
    EXPECT_EQ(obj.tick, head.tick);
    const double t = static_cast<double>(head.tick) * 250e-6;
    const double id = decode(cg, general, "Obj_ID", obj.frame);
    if (first_id < 0) first_id = static_cast<int>(id);
    EXPECT_EQ(id, first_id) << "one track throughout";
    // Its rear face from the bumper (the vehicle at rest, heading east)
    const double truth = obj.gap - 2.25 - mount_x;
    EXPECT_NEAR(decode(cg, general, "Obj_DistLong", obj.frame), truth, 4 * sigma_d + 0.1) << t;
    EXPECT_NEAR(decode(cg, general, "Obj_DistLat", obj.frame), 0.0, 4 * sigma_d + 0.1) << t;
    if (t > 0.2) {  // at speed
      EXPECT_NEAR(decode(cg, general, "Obj_VrelLong", obj.frame), -10.0, 4 * sigma_v + 0.125) << t;
      EXPECT_EQ(decode(cg, general, "Obj_DynProp", obj.frame), 2.0);  // oncoming
      EXPECT_EQ(decode(cg, general, "Obj_RCS", obj.frame), 10.0);
    }
    ++cycles;
    i += 2;
  }
  EXPECT_EQ(cycles, static_cast<std::size_t>((kTicks - 1) / 280 + 1));
  const rt::ChannelTable& table = rig.table();
  EXPECT_EQ(table.get(table.resolve("sensor.radar.front.objects")), 1.0);
  EXPECT_NEAR(table.get(table.resolve("sensor.radar.front.nearest.vrel_long")), -10.0, 4 * sigma_v);
}

TEST(RadarStage, ThePerceptionOverlaysRestateTheRigsOwnBusUnchanged) {
  for (const char* rig : {"hmmwv", "ravon"}) {
    const std::string base = fmt::format("{}/hil_rigs/{}/rig.pbtxt", HIL_SOURCE_DIR, rig);
    const std::vector<std::filesystem::path> overlays{
        fmt::format("{}/hil_rigs/{}/perception.pbtxt", HIL_SOURCE_DIR, rig)};
    const config::LoadResult plain = config::load_rig_config(base);
    const config::LoadResult with = config::load_rig_config(base, overlays);
    ASSERT_TRUE(plain.ok() && with.ok()) << rig << errors_text(with.errors);
    ASSERT_EQ(with.settings->can.size(), plain.settings->can.size() + 1) << rig;
    const io::can::CanBusSpec& a = plain.settings->can[0];
    const io::can::CanBusSpec& b = with.settings->can[0];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.uri, b.uri);
    EXPECT_EQ(a.database.file_name, b.database.file_name);
    EXPECT_EQ(a.plan, b.plan) << rig << ": perception.pbtxt's bus \"" << a.name
                              << "\" differs from rig.pbtxt's: restate it unchanged";
    ASSERT_EQ(a.rx.size(), b.rx.size()) << rig;
    ASSERT_EQ(a.tx.size(), b.tx.size()) << rig;
    for (std::size_t i = 0; i < a.rx.size(); ++i) {
      EXPECT_EQ(a.rx[i].message, b.rx[i].message);
      EXPECT_EQ(a.rx[i].alive_counter, b.rx[i].alive_counter);
      EXPECT_EQ(a.rx[i].crc, b.rx[i].crc);
      EXPECT_EQ(a.rx[i].hold_cycles, b.rx[i].hold_cycles);
      EXPECT_EQ(a.rx[i].timeout_s, b.rx[i].timeout_s);
      EXPECT_EQ(a.rx[i].safe, b.rx[i].safe);
      ASSERT_EQ(a.rx[i].signals.size(), b.rx[i].signals.size());
      for (std::size_t k = 0; k < a.rx[i].signals.size(); ++k) {
        EXPECT_EQ(a.rx[i].signals[k].signal, b.rx[i].signals[k].signal);
        EXPECT_EQ(a.rx[i].signals[k].channel, b.rx[i].signals[k].channel);
      }
    }
    for (std::size_t i = 0; i < a.tx.size(); ++i) {
      EXPECT_EQ(a.tx[i].message, b.tx[i].message);
      EXPECT_EQ(a.tx[i].cycle_s, b.tx[i].cycle_s);
      ASSERT_EQ(a.tx[i].signals.size(), b.tx[i].signals.size());
      for (std::size_t k = 0; k < a.tx[i].signals.size(); ++k) {
        EXPECT_EQ(a.tx[i].signals[k].signal, b.tx[i].signals[k].signal);
        EXPECT_EQ(a.tx[i].signals[k].channel, b.tx[i].signals[k].channel);
      }
    }
  }
}

}  // namespace
}  // namespace hil::runtime
