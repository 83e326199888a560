// `hilsim run` on the run harness, in process: what the harness must keep true of any run.
//  - a decimated task with an offset runs in the recorded run and replay runs it alike
//    (replay is the real executive with the run's tick, not a loop of its own);
//  - --speed max records the same frames and samples as a paced run;
//  - a non-finite vehicle state latches the safe state: counted, recorded, in the summary,
//    and no channel (so no CAN frame) carries a NaN; the run replays identically.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "runtime/rig.hpp"
#include "runtime/tick_plan.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/session/replay/replay_session.hpp"
#include "tools/session/run/run_session.hpp"

namespace hil::session {
namespace {

/// A lateral gust that flips sign every 4 ticks: its effect depends on the exact ticks it
/// runs on, so a replay that ignored its decimation or offset would diverge.
class Gust final : public rt::Stage {
 public:
  explicit Gust(rt::ChannelTable& table)
      : table_(table), force_(table.resolve("env.disturbance.force.y")) {}
  void run(const rt::TickContext& c) noexcept override {
    table_.set(force_, (c.tick / 4) % 2 == 0 ? 400.0 : -400.0);
  }

 private:
  rt::ChannelTable& table_;
  rt::ChannelId force_;
};

struct GustTask {
  std::uint32_t decimation;
  std::uint32_t offset;
  std::unique_ptr<Gust> gust;  // lives as long as the run's or the replay's tick
  auto adder() {
    return [this](runtime::TickPlan& plan, runtime::Rig& rig) {
      gust = std::make_unique<Gust>(rig.table());
      plan.add(runtime::Slot::commands, "gust", *gust, decimation, offset);
    };
  }
};

RunSpec short_run(const std::filesystem::path& dir, Speed speed) {
  RunSpec o;
  o.duration = "2s";
  o.record_dir = dir.string();
  o.no_rt = true;
  o.quiet = true;
  o.speed = speed;
  return o;
}

int replay_dir(const std::filesystem::path& dir,
               std::function<void(runtime::TickPlan&, runtime::Rig&)> extra = {}) {
  ReplaySpec r;
  r.source = dir.string();
  r.quiet = true;
  r.extra_stages = std::move(extra);
  return replay(r);
}

nlohmann::json manifest(const std::filesystem::path& dir) {
  std::ifstream in(dir / "manifest.json");
  return nlohmann::json::parse(in);
}

/// can.log without its timestamps (the wall-clock start differs between two runs).
std::string frames_of(const std::filesystem::path& dir) {
  std::ifstream in(dir / "can.log");
  std::string line, out;
  while (std::getline(in, line)) out += line.substr(line.find(')') + 1) + "\n";
  return out;
}

const Speed kMax{.mode = Speed::Mode::max};

TEST(HarnessRun, ADecimatedTaskWithAnOffsetReplaysIdentically) {
  const config::testing::TempDir tmp;
  const auto dir = tmp.path() / "run";
  GustTask in_run{.decimation = 4, .offset = 1};
  RunSpec o = short_run(dir, kMax);
  o.extra_stages = in_run.adder();
  const int status = run_rig(o);
  ASSERT_TRUE(status == 0 || status == 4) << status;

  GustTask same{.decimation = 4, .offset = 1};
  EXPECT_EQ(replay_dir(dir, same.adder()), 0) << "the run's own tick must replay identically";
  GustTask every_tick{.decimation = 1, .offset = 0};  // what a loop ignoring decimation does
  EXPECT_EQ(replay_dir(dir, every_tick.adder()), 1);
  GustTask other_offset{.decimation = 4, .offset = 0};
  EXPECT_EQ(replay_dir(dir, other_offset.adder()), 1);
}

TEST(HarnessRun, SpeedMaxRecordsWhatAPacedRunRecords) {
  const config::testing::TempDir tmp;
  ASSERT_EQ(run_rig(short_run(tmp.path() / "max", kMax)), 0);
  ASSERT_EQ(
      run_rig(short_run(tmp.path() / "paced", Speed{.mode = Speed::Mode::factor, .factor = 1.0})),
      0);
  EXPECT_EQ(replay_dir(tmp.path() / "max"), 0);
  EXPECT_EQ(replay_dir(tmp.path() / "paced"), 0);
  const nlohmann::json max = manifest(tmp.path() / "max");
  const nlohmann::json paced = manifest(tmp.path() / "paced");
  EXPECT_EQ(max["speed"], "max");
  EXPECT_EQ(paced["speed"], "1x");
  EXPECT_EQ(max["ticks"], 8000);
  EXPECT_EQ(max["recording"]["telemetry_samples"], paced["recording"]["telemetry_samples"]);
  EXPECT_EQ(max["recording"]["telemetry_dropped"], 0);
  EXPECT_EQ(max["recording"]["can_frames"], paced["recording"]["can_frames"]);
  EXPECT_EQ(frames_of(tmp.path() / "max"), frames_of(tmp.path() / "paced"));
}

/// Breaks the vehicle's state at one tick, as a diverging model would.
class Breaker final : public rt::Stage {
 public:
  Breaker(runtime::Rig& rig, std::int64_t at) : rig_(rig), at_(at) {}
  void run(const rt::TickContext& c) noexcept override {
    if (c.tick != at_) return;
    models::VehicleState x = rig_.vehicle()->state();
    x[3] = std::numeric_limits<double>::quiet_NaN();
    rig_.vehicle()->set_state(x);
  }

 private:
  runtime::Rig& rig_;
  std::int64_t at_;
};

/// Counts channel values that are not finite, after every task of the tick wrote.
class NanWatch final : public rt::Stage {
 public:
  explicit NanWatch(const rt::ChannelTable& table) : table_(table) {}
  void run(const rt::TickContext& /*c*/) noexcept override {
    for (const double v : table_.values()) non_finite += std::isfinite(v) ? 0 : 1;
  }
  std::int64_t non_finite = 0;

 private:
  const rt::ChannelTable& table_;
};

TEST(HarnessRun, ANonFiniteStateLatchesTheSafeStateAndNoNanLeaves) {
  const config::testing::TempDir tmp;
  const auto dir = tmp.path() / "run";
  std::unique_ptr<Breaker> breaker;
  std::unique_ptr<NanWatch> watch;
  runtime::Rig* runtime = nullptr;
  RunSpec o = short_run(dir, kMax);
  o.extra_stages = [&](runtime::TickPlan& plan, runtime::Rig& rig) {
    runtime = &rig;
    breaker = std::make_unique<Breaker>(rig, 4000);  // at 1 s
    watch = std::make_unique<NanWatch>(rig.table());
    plan.add(runtime::Slot::commands, "breaker", *breaker);
    plan.add(runtime::Slot::record, "nan_watch", *watch);
  };
  testing::internal::CaptureStdout();
  const int status = run_rig(o);
  const std::string summary = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(status == 0 || status == 4) << summary;

  EXPECT_NE(summary.find("faults: SAFE STATE since 1.000 s"), std::string::npos) << summary;
  EXPECT_EQ(watch->non_finite, 0);  // no channel, so no frame encoded from one, saw a NaN
  ASSERT_NE(runtime, nullptr);
  // broken in tick 4000, whose step ends at 4001 periods
  EXPECT_DOUBLE_EQ(manifest(dir)["safe_state"].get<double>(), 4001 * 250e-6);
  EXPECT_EQ(manifest(dir)["ticks"], 8000);  // the loop went on

  std::unique_ptr<Breaker> again;
  EXPECT_EQ(replay_dir(dir,
                       [&](runtime::TickPlan& plan, runtime::Rig& rig) {
                         again = std::make_unique<Breaker>(rig, 4000);
                         plan.add(runtime::Slot::commands, "breaker", *again);
                       }),
            0);
}

}  // namespace
}  // namespace hil::session
