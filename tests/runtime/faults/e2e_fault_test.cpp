// Fault insertion produces each AUTOSAR E2E status on purpose: RAVON with the rest-bus overlay
// (tests/tools/restbus/restbus.pbtxt) sends the body bus's E2E-protected messages with
// counter, CRC, data id and drop faults; a peer on the same virtual link checks them as the
// device under test's bus would (dut_nodes), and counts what the specification's check says.

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "config/scenario/scenario_spec.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::runtime {
namespace {

const std::filesystem::path kRig = HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt";
const std::filesystem::path kOverlay = HIL_SOURCE_DIR "/tests/tools/restbus/restbus.pbtxt";

/// The device's end of the body bus: every message of the E2E senders checked, each tick.
class Checker final : public rt::Stage {
 public:
  Checker(const io::can::CanBusSpec& body, double period_s) {
    io::can::CanBusSpec spec;
    spec.name = "peer";
    spec.uri = body.uri;
    spec.database = body.database;
    spec.dut_nodes = {"ABS", "ESP", "SAS", "GW", "EMS", "ACU"};
    spec.e2e = body.e2e;
    std::vector<io::can::MappingProblem> problems;
    bus_ = io::can::CanBus::create(spec, table_, period_s, 0, problems);
    for (const auto& p : problems) ADD_FAILURE() << p.field << ": " << p.message;
  }
  void run(const rt::TickContext& c) noexcept override { bus_->read(c.tick, table_); }
  [[nodiscard]] const io::can::MessageCounters& counters(const std::string& message) const {
    for (std::size_t i = 0; i < bus_->rx_count(); ++i) {
      if (bus_->rx_name(i) == message) return bus_->rx_counters(i);
    }
    throw std::runtime_error("no message " + message);
  }

 private:
  rt::ChannelTable table_;
  std::unique_ptr<io::can::CanBus> bus_;
};

/// 2 s with no scenario drive and `faults` (a scenario's faults block) on the body bus.
class E2eRun {
 public:
  explicit E2eRun(const std::string& faults) {
    const std::vector<std::filesystem::path> overlays{kOverlay};
    config::ScenarioLoadResult loaded =
        config::load_scenario_text({"e2e_faults.pbtxt",
                                    "description: \"E2E faults\"\nduration_s: 2\n"
                                    "drive { straight { speeds { at_s: 0 speed: 0.5 } } }\n" +
                                        faults},
                                   kRig, overlays);
    for (const config::ConfigError& e : loaded.errors) ADD_FAILURE() << e.to_string();
    if (!loaded.ok()) return;
    static int n = 0;  // NOLINT: a fresh pair of virtual: buses per run
    loaded.rig->can[0].uri = "virtual:e2e_ecu_" + std::to_string(n);
    loaded.rig->can[1].uri = "virtual:e2e_body_" + std::to_string(n++);
    const double period_s = static_cast<double>(loaded.rig->executive.period) * 1e-9;
    checker_ = std::make_unique<Checker>(loaded.rig->can[1], period_s);
    run_ = session::RunBuilder(
               {.loaded = session::LoadedRig{.name = "restbus",
                                             .settings = std::move(*loaded.rig),
                                             .scenario = std::move(loaded.scenario)},
                .clock = {.speed = {.mode = session::Speed::Mode::max}, .no_rt = true},
                .quiet = true,
                .extra_stages = [this](TickPlan& plan,
                                       Rig&) { plan.add(Slot::peer_rx, "checker", *checker_); }})
               .build();
    (void)run_->run_until(run_->scenario_ticks);
  }
  [[nodiscard]] const io::can::MessageCounters& seen(const std::string& message) const {
    return checker_->counters(message);
  }

 private:
  std::unique_ptr<Checker> checker_;
  std::unique_ptr<session::Run> run_;
};

struct Seen {
  std::uint64_t frames, repeated, wrong_sequence, errors, no_data;
};
Seen seen(const E2eRun& r, const std::string& message) {
  const io::can::MessageCounters& c = r.seen(message);
  return {c.frames.load(), c.counter_errors.load(), c.wrong_sequence.load(), c.crc_errors.load(),
          c.no_data.load()};
}

std::string fault(const std::string& name, const std::string& message, const std::string& op,
                  const std::string& stop) {
  return "faults { name: \"" + name + "\" start { at_s: 1 } stop { " + stop +
         " } message { bus: \"body\" name: \"" + message + "\" " + op + " } }\n";
}

TEST(E2eFaults, EachStatusOnPurposeAndNoneWithout) {
  const std::vector<std::string> protected_messages{
      "ABS_WheelSpeeds", "ABS_Status", "ABS_BrakePressure", "ESP_YawRate",
      "ESP_Accel",       "ESP_Status", "ESP_TorqueRequest", "SAS_Angle",
      "GW_VehicleSpeed", "GW_Config",  "EMS_Torque",        "ACU_CrashStatus"};
  const E2eRun clean("");
  for (const std::string& m : protected_messages) {
    const Seen s = seen(clean, m);
    EXPECT_GT(s.frames, 0U) << m;
    EXPECT_EQ(s.repeated + s.wrong_sequence + s.errors + s.no_data, 0U) << m;
  }

  const E2eRun faulted(
      fault("repeat", "ABS_WheelSpeeds", "counter { mode: \"freeze\" }", "count: 3") +
      fault("skip", "ESP_Accel", "counter { mode: \"offset\" value: 5 }", "count: 1") +
      fault("crc", "ESP_TorqueRequest", "crc { mode: \"offset\" value: 1 }", "count: 4") +
      fault("data id", "SAS_Angle", "data_id { value: 291 }", "count: 2") +
      fault("missing", "ABS_BrakePressure", "drop {}", "duration_s: 0.1"));
  const Seen repeat = seen(faulted, "ABS_WheelSpeeds");  // P01: the same counter 3 times
  EXPECT_EQ(repeat.repeated, 3U);
  EXPECT_EQ(repeat.wrong_sequence + repeat.errors + repeat.no_data, 0U);
  const Seen skip = seen(faulted, "ESP_Accel");  // P02: one counter 5 too far
  EXPECT_EQ(skip.wrong_sequence, 1U);
  EXPECT_EQ(skip.repeated + skip.errors + skip.no_data, 0U);
  // A frame the check refuses does not move its counter on: the first good frame after n bad
  // ones is n + 1 steps ahead, beyond MaxDeltaCounter 1, a wrong sequence (as specified).
  const Seen crc = seen(faulted, "ESP_TorqueRequest");  // P05: 4 bad CRCs
  EXPECT_EQ(crc.errors, 4U);
  EXPECT_EQ(crc.wrong_sequence, 1U);
  EXPECT_EQ(crc.repeated + crc.no_data, 0U);
  const Seen id = seen(faulted, "SAS_Angle");  // P11 nibble mode: another message's data id
  EXPECT_EQ(id.errors, 2U);
  EXPECT_EQ(id.wrong_sequence, 1U);
  EXPECT_EQ(id.repeated + id.no_data, 0U);
  // P22 every 10 ms, the 10 frames of 1.00–1.09 s dropped: NODATA 15 ms after the last frame
  // (0.99 s), then every 10 ms: 1.005 … 1.095 s, 10 cycles; the next frame is 11 counter steps
  // on: a wrong sequence.
  const Seen missing = seen(faulted, "ABS_BrakePressure");
  EXPECT_EQ(missing.no_data, 10U);
  EXPECT_EQ(missing.wrong_sequence, 1U);
  EXPECT_EQ(missing.repeated + missing.errors, 0U);
  EXPECT_EQ(seen(clean, "ABS_BrakePressure").frames - missing.frames, 11U);  // and the jump's
}

}  // namespace
}  // namespace hil::runtime
