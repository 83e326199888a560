// Model-exchange FMUs in a rig's loop (docs/fmu.md "Model exchange"): RAVON's loop at 4 kHz with
// the bouncing ball (FMI 2 and 3) stepped every 4 ticks — its bounces within one FMU period of
// the analytic times, the run replayed identically — and the time-event and clocked-partition
// FMUs beside each other against their closed forms.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/fmu/fmu_me_csv.hpp"
#include "tests/fmu/hilsim_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::fmu {
namespace {

namespace fs = std::filesystem;
using config::testing::TempDir;
using fmu_testing::hilsim;
using fmu_testing::parse_csv;
using fmu_testing::read_text;

constexpr double kPeriod = 0.001;  // every_ticks 4 at RAVON's 4 kHz

std::string me_fmu(const std::string& model, int version) {
  return fmt::format("{}/{}_me_fmi{}.fmu", HIL_FMU_DIR, model, version);
}

/// Runs RAVON with `overlay` for `duration`, replays it (expecting identical) and exports the
/// fmu.* channels; the CSV of `instance`.
fmu_testing::Csv run_and_replay(const TempDir& dir, const std::string& overlay,
                                const std::string& duration, const std::string& instance,
                                std::string* output = nullptr) {
  const fs::path o = dir.write("me.pbtxt", overlay);
  const fs::path run = dir.path() / "run";
  const auto r =
      hilsim(fmt::format("run --overlay {} --duration {} --speed max --no-rt "
                         "--console off -q --record {}",
                         o.string(), duration, run.string()));
  EXPECT_EQ(r.status, 0) << r.output;
  if (output != nullptr) *output = r.output;
  const auto replay = hilsim("replay " + run.string() + " -q");
  EXPECT_EQ(replay.status, 0) << replay.output;
  EXPECT_NE(replay.output.find("identical"), std::string::npos) << replay.output;
  const auto exported = hilsim(fmt::format("export {} --csv {} --channels 'fmu.*'", run.string(),
                                           (dir.path() / "csv").string()));
  EXPECT_EQ(exported.status, 0) << exported.output;
  return parse_csv(read_text(dir.path() / "csv" / fmt::format("fmu.{}.csv", instance)));
}

class MeInTheLoop : public ::testing::TestWithParam<int> {};

TEST_P(MeInTheLoop, TheBallBouncesWithinOnePeriodOfTheAnalyticTimesAndReplays) {
  const TempDir dir;
  std::string output;
  const auto csv = run_and_replay(dir,
                                  fmt::format("fmus {{\n  path: \"{}\"\n  instance: \"ball\"\n"
                                              "  every_ticks: 4\n"
                                              "  outputs {{ variable: \"h\" }}\n"
                                              "  outputs {{ variable: \"bounces\" }}\n"
                                              "  outputs {{ variable: \"last_bounce\" }}\n}}\n",
                                              me_fmu("bouncing_ball", GetParam())),
                                  "2.45s", "ball", &output);
  EXPECT_NE(output.find("fmu ball: 2450 steps of 0.001 s, none failed; on the RT thread"),
            std::string::npos)
      << output;
  const double g = 9.81;
  const double e = 0.7;
  const double t1 = std::sqrt(2.0 / g);
  const double v1 = g * t1;
  std::vector<double> analytic{t1};
  for (int k = 1; analytic.back() + 2.0 * std::pow(e, k) * v1 / g < 2.449; ++k) {
    analytic.push_back(analytic.back() + 2.0 * std::pow(e, k) * v1 / g);
  }
  ASSERT_GE(analytic.size(), 8U);
  // The tick at which each bounce shows in the channels, and the event time the FMU saw
  const std::vector<double>& time = csv["time_s"];
  const std::vector<double>& bounces = csv["fmu.ball.bounces"];
  const std::vector<double>& last = csv["fmu.ball.last_bounce"];
  std::vector<double> seen;
  std::vector<double> event_time;
  for (std::size_t i = 1; i < time.size(); ++i) {
    if (bounces[i] != bounces[i - 1]) {
      seen.push_back(time[i]);
      event_time.push_back(last[i]);
    }
  }
  ASSERT_EQ(seen.size(), analytic.size());
  for (std::size_t k = 0; k < analytic.size(); ++k) {
    EXPECT_LT(std::abs(seen[k] - analytic[k]), kPeriod) << "bounce " << k + 1;
    EXPECT_NEAR(event_time[k], analytic[k], 1e-9) << "bounce " << k + 1;
  }
  for (const double h : csv["fmu.ball.h"]) EXPECT_GE(h, -1e-9);
}

INSTANTIATE_TEST_SUITE_P(Fmi, MeInTheLoop, ::testing::Values(2, 3),
                         [](const auto& p) { return fmt::format("fmi{}", p.param); });

TEST(MeInTheLoop, ATimeEventAndAClockedPartitionFollowTheirClosedForms) {
  const TempDir dir;
  const std::string overlay = fmt::format(
      "fmus {{ path: \"{}\" instance: \"step\" every_ticks: 4\n"
      "  outputs {{ variable: \"y\" }} outputs {{ variable: \"x\" }} }}\n"
      "fmus {{ path: \"{}\" instance: \"clocked\" every_ticks: 4\n"
      "  outputs {{ variable: \"ticks\" }} outputs {{ variable: \"sample\" }} }}\n",
      me_fmu("time_event", 3), me_fmu("clocked", 3));
  const auto step = run_and_replay(dir, overlay, "2s", "step");
  const auto clocked = parse_csv(read_text(dir.path() / "csv" / "fmu.clocked.csv"));
  // On the RT thread the step at tick j·4 runs from t to t + 1 ms and the channels show its end
  for (std::size_t i = 0; i < step.rows(); ++i) {
    const double t_end = step["time_s"][i] + kPeriod;
    if (std::abs(t_end - 1.3) < 1e-9 || std::fmod(step["tick"][i], 4.0) != 0.0) continue;
    EXPECT_EQ(step["fmu.step.y"][i], t_end > 1.3 ? 1.0 : 0.0) << t_end;
    EXPECT_NEAR(step["fmu.step.x"][i], std::max(0.0, t_end - 1.3), 1e-9) << t_end;
  }
  ASSERT_GT(clocked.rows(), 0U);
  for (std::size_t i = 0; i < clocked.rows(); ++i) {
    const double t_end = clocked["time_s"][i] + kPeriod;
    if (std::fmod(clocked["tick"][i], 4.0) != 0.0) continue;
    const double k = std::floor(t_end / 0.1 + 1e-9);
    EXPECT_EQ(clocked["fmu.clocked.ticks"][i], k + 1) << t_end;
    EXPECT_NEAR(clocked["fmu.clocked.sample"][i], 0.1 * k, 1e-9) << t_end;
  }
}

}  // namespace
}  // namespace hil::io::fmu
