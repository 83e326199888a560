// Runs recorded by the build before issue 34 (tests/tools/cli/runs_recorded_before_runtime_layer:
// CAN with the built-in ECU, an FMU on a worker, rig faults, API commands, the shared-memory
// bus with a co-simulator) replay identical: the runtime layer changed no behaviour, and every
// recorded input (can.log, bus.log, fmu.log, commands.log) is still applied at its tick.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/temp_dir.hpp"
#include "tests/tools/cli/cli_runner.hpp"

namespace hil::tools {
namespace {

namespace fs = std::filesystem;
using testing::run_hilsim;

class RecordedBeforeRuntimeLayer : public ::testing::TestWithParam<std::string> {};

TEST_P(RecordedBeforeRuntimeLayer, ReplaysIdentical) {
  const config::testing::TempDir dir;
  const fs::path run = dir.path() / GetParam();
  fs::copy(
      fs::path(HIL_SOURCE_DIR) / "tests/tools/cli/runs_recorded_before_runtime_layer" / GetParam(),
      run, fs::copy_options::recursive);
  if (GetParam() == "ravon")
    fs::copy_file(HIL_FMU_DIR "/ravon_battery_fmi2.fmu", run / "ravon_battery_fmi2.fmu");
  const testing::CommandResult r = run_hilsim("replay " + run.string() + " -q --console off");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.rfind("identical: ", 0), 0U) << r.output;
  EXPECT_NE(r.output.find(", 0 differ, 0 missing, 0 extra"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(", 0 values differ"), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(Runs, RecordedBeforeRuntimeLayer,
                         ::testing::Values("ravon", "hmmwv", "ravon_cosim"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace hil::tools
