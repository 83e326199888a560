// Each fault operation in the loop, against a run without it: what the built-in ECU (or the
// rig, for frames it receives) counts, and what a channel carries while the truth stays in
// fault.<name>.original.

#include "tests/runtime/faults/fault_run.hpp"

namespace hil::runtime {
namespace {

using fault_testing::FaultRun;
using fault_testing::Probe;

/// A message fault from 1 s for 100 ms (or `stop`).
std::string message_fault(const std::string& message, const std::string& op,
                          const std::string& stop = "duration_s: 0.1") {
  return R"(faults { name: "m" start { at_s: 1 } stop { )" + stop +
         R"( } message { bus: "ecu" name: ")" + message + "\" " + op + " } }";
}

std::uint64_t frames(const FaultRun& r, const std::string& m) {
  return FaultRun::get(r.ecu(m).frames);
}

class MessageOps : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    clean_ = std::make_unique<FaultRun>("");
    clean_->go();
  }
  static void TearDownTestSuite() { clean_.reset(); }
  static std::unique_ptr<FaultRun> clean_;
};
std::unique_ptr<FaultRun> MessageOps::clean_;

TEST_F(MessageOps, CycleEveryNthAndFaster) {
  FaultRun nth(message_fault("HIL_WheelSpeeds", "cycle { every_nth: 2 }"));
  nth.go();
  EXPECT_EQ(frames(*clean_, "HIL_WheelSpeeds") - frames(nth, "HIL_WheelSpeeds"), 5U);
  FaultRun fast(message_fault("HIL_WheelSpeeds", "cycle { ms: 5 }"));
  fast.go();
  EXPECT_EQ(frames(fast, "HIL_WheelSpeeds") - frames(*clean_, "HIL_WheelSpeeds"), 10U);
}

TEST_F(MessageOps, DelayHoldsFramesAndGivesThemAllBack) {
  FaultRun run(message_fault("HIL_WheelSpeeds", "delay { ms: 35 }"));
  run.go();
  EXPECT_EQ(frames(run, "HIL_WheelSpeeds"), frames(*clean_, "HIL_WheelSpeeds"));
  EXPECT_EQ(FaultRun::get(run.ecu("HIL_WheelSpeeds").timeouts), 1U);  // a 45 ms gap > 30 ms
  EXPECT_EQ(run.engine().report().at(0).count, 10U);
}

TEST_F(MessageOps, DuplicateLengthBitsAndSignal) {
  FaultRun twice(message_fault("HIL_WheelSpeeds", "duplicate {}"));
  twice.go();
  EXPECT_EQ(frames(twice, "HIL_WheelSpeeds") - frames(*clean_, "HIL_WheelSpeeds"), 10U);

  FaultRun dlc(message_fault("HIL_SteerFeedback", "dlc { length: 6 }", "count: 4"));
  dlc.go();
  EXPECT_EQ(FaultRun::get(dlc.ecu("HIL_SteerFeedback").length_errors), 4U);
  EXPECT_EQ(FaultRun::get(dlc.ecu("HIL_SteerFeedback").crc_errors), 0U);

  FaultRun bits(
      message_fault("HIL_SteerFeedback", "bits { start: 40 size: 4 value: 5 }", "count: 3"));
  bits.go();  // after the CRC: the receiver sees a bad CRC
  EXPECT_EQ(FaultRun::get(bits.ecu("HIL_SteerFeedback").crc_errors), 3U);

  FaultRun signal(
      message_fault("HIL_SteerFeedback", "signal { name: \"SteerRear\" value: 0.3 }", "count: 3"));
  signal.go();  // before the CRC: valid frames with a wrong value
  EXPECT_EQ(FaultRun::get(signal.ecu("HIL_SteerFeedback").errors), 0U);
  EXPECT_EQ(frames(signal, "HIL_SteerFeedback"), frames(*clean_, "HIL_SteerFeedback"));
  EXPECT_EQ(signal.engine().report().at(0).count, 3U);
}

TEST_F(MessageOps, SilenceAndWhatTheRigReceives) {
  FaultRun silent(
      R"(faults { name: "s" start { at_s: 1 } stop { count: 40 } bus { name: "ecu" silence {} } })");
  silent.go();  // 10 ms: one frame of each 10 ms message, one of the 20 ms ones due at 1 s
  EXPECT_EQ(frames(*clean_, "HIL_WheelSpeeds") - frames(silent, "HIL_WheelSpeeds"), 1U);
  EXPECT_EQ(frames(*clean_, "HIL_SteerFeedback") - frames(silent, "HIL_SteerFeedback"), 1U);
  EXPECT_EQ(silent.engine().report().at(0).count, 40U);

  FaultRun lost(message_fault("ECU_Steer", "drop {}", "count: 5"));
  lost.go();
  EXPECT_EQ(FaultRun::get(clean_->rig_rx("ECU_Steer").frames) -
                FaultRun::get(lost.rig_rx("ECU_Steer").frames),
            5U);
}

/// A channel fault on vehicle.imu.gyro.z from 1 s for 0.5 s, probed after fault_out.
struct ChannelRun {
  explicit ChannelRun(const std::string& op, const std::string& extra = "")
      : run(R"(faults { name: "c" start { at_s: 1 } stop { duration_s: 0.5 } )" + extra +
            R"( channel { name: "vehicle.imu.gyro.z" )" + op + " } }"),
        probe(run.rig().table(), "vehicle.imu.gyro.z", "fault.c.original") {
    run.add(Slot::peer_tx, probe);
  }
  FaultRun run;
  Probe probe;
};

TEST(ChannelOps, ForceStuckGainNan) {
  ChannelRun force("force { value: 0.7 }");
  force.probe.at_tick = 5000;
  force.run.go();
  EXPECT_EQ(force.probe.value_at, 0.7);

  ChannelRun gain("gain { value: 2 }");
  gain.probe.at_tick = 5000;
  gain.run.go();
  EXPECT_EQ(gain.probe.value_at, 2 * gain.probe.truth_at);

  ChannelRun nan("nan {}");
  nan.probe.at_tick = 4500;
  nan.run.go();
  EXPECT_TRUE(std::isnan(nan.probe.value_at));
  EXPECT_FALSE(std::isnan(nan.probe.truth_at));

  ChannelRun stuck("stuck { value: -0.25 }");
  stuck.probe.at_tick = 5999;
  stuck.run.go();
  EXPECT_EQ(stuck.probe.value_at, -0.25);
}

TEST(ChannelOps, DriftGrowsFromTheOnsetAndDelayIsThePast) {
  ChannelRun drift("drift { per_s: 0.2 }");
  drift.probe.at_tick = 5000;  // 0.25 s after the onset
  drift.run.go();
  EXPECT_NEAR(drift.probe.value_at - drift.probe.truth_at, 0.05, 1e-12);

  // the truth 0.1 s (400 ticks) earlier
  ChannelRun delay("delay { s: 0.1 }");
  struct Capture final : rt::Stage {
    Capture(const rt::ChannelTable& t, std::int64_t at) : table(t), tick(at) {}
    void run(const rt::TickContext& c) noexcept override {
      if (c.tick == tick) original = table.get(table.resolve("fault.c.original"));
      if (c.tick == tick + 400) faulted = table.get(table.resolve("vehicle.imu.gyro.z"));
    }
    const rt::ChannelTable& table;
    std::int64_t tick;
    double original = NAN, faulted = NAN;
  } capture(delay.run.rig().table(), 4600);
  delay.run.add(Slot::peer_tx, capture);
  delay.run.go();
  EXPECT_EQ(capture.faulted, capture.original);
}

TEST(ChannelOps, NoiseIsSeededAndAPulseIsOnAndOff) {
  ChannelRun a("noise { sigma: 0.1 }");
  a.probe.at_tick = 5000;
  a.run.go();
  ChannelRun b("noise { sigma: 0.1 }");
  b.probe.at_tick = 5000;
  b.run.go();
  EXPECT_EQ(a.probe.value_at, b.probe.value_at);  // the same seed and name, the same noise
  EXPECT_NE(a.probe.value_at, a.probe.truth_at);
  EXPECT_LT(a.probe.max_difference, 0.1 * 6);

  ChannelRun pulse("offset { value: 1 }", "pulse { on_s: 0.01 off_s: 0.04 }");
  pulse.run.go();  // 0.5 s of 50 ms periods, 10 ms on: 10 × 40 ticks
  EXPECT_EQ(pulse.run.engine().report().at(0).count, 400U);
}

}  // namespace
}  // namespace hil::runtime
