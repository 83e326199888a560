// The `diagnostics` block: RAVON's loads with its defaults filled in; every mistake is
// located at the line that wrote it, names checked against the diagnostics bus.

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/config/loader_fixture.hpp"

namespace hil::config {
namespace {

using testing::Errors;
using DiagnosticsConfigTest = testing::LoaderTest;

TEST_F(DiagnosticsConfigTest, RavonsBlockLoads) {
  const LoadResult r = load_rig_config(HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r.settings->diagnostics.has_value());
  const DiagnosticsSpec& d = *r.settings->diagnostics;
  EXPECT_EQ(d.request_id, 0x7E0U);
  EXPECT_EQ(d.response_id, 0x7E8U);
  EXPECT_EQ(d.functional_id, 0x7DFU);
  EXPECT_EQ(d.block_size, 4);
  EXPECT_DOUBLE_EQ(d.st_min_s, 0.005);
  ASSERT_FALSE(d.dids.empty());
  EXPECT_EQ(d.dids[0].id, 0xF190);
  EXPECT_EQ(d.dids[0].text.size(), 17U);  // a VIN
  ASSERT_FALSE(d.dtcs.empty());
  EXPECT_EQ(d.dtcs[0].code, 0xC12300U);
  EXPECT_EQ(d.dtcs[0].monitor.kind, MonitorSpec::Kind::message_timeout);
  EXPECT_EQ(d.dtcs[0].debounce.fail_threshold, 3);
}

TEST_F(DiagnosticsConfigTest, EveryMistakeIsLocated) {
  const std::string rig = std::string(HIL_SOURCE_DIR) + "/hil_rigs/ravon/rig.pbtxt";
  dir_.write("bad.pbtxt", R"(diagnostics {
  request_id: 0x800
  st_min_ms: 200
  dids { id: 0xF190 }
  dids { id: 0x0101 channel: "vehicle.wheel.fl.sped" length: 5 }
  dtcs { code: 0x1000000 name: "Lost" monitor { message_timeout: "HIL_WheelSpeed" } }
  dtcs { code: 0xC12400 name: "low" monitor { below { channel: "vehicle.battery.voltage" value: 40 } }
         debounce { fail_threshold: 0 } }
  routines { id: 0x0201 channel: "no.such" }
}
)");
  const LoadResult r =
      load_rig_config(rig, std::vector<std::filesystem::path>{dir_.path() / "bad.pbtxt"});
  ASSERT_FALSE(r.ok());
  const Errors errors = messages(r);
  const auto has = [&](const std::string& text) {
    return std::ranges::any_of(
        errors, [&](const std::string& e) { return e.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(
      has("bad.pbtxt:2:15: diagnostics.request_id: 0x800 is not an 11-bit id; expected 0..0x7FF"))
      << ::testing::PrintToString(errors);
  EXPECT_TRUE(has("diagnostics.st_min_ms: 200: expected whole ms 0..127 or 0.1..0.9"));
  EXPECT_TRUE(has("diagnostics.dids[0]: expected text or channel"));
  EXPECT_TRUE(
      has("diagnostics.dids[1].channel: \"vehicle.wheel.fl.sped\" is not a channel the "
          "diagnostics bus maps (the ECU sees it) (did you mean vehicle.wheel.fl.speed?)"));
  EXPECT_TRUE(has("diagnostics.dids[1].length: 5: a channel's DID is 1..4 bytes"));
  EXPECT_TRUE(has("diagnostics.dtcs[0].code: 0x1000000: expected a 3-byte DTC"));
  EXPECT_TRUE(has("diagnostics.dtcs[0].name: \"Lost\": expected lower snake case"));
  EXPECT_TRUE(
      has("diagnostics.dtcs[0].monitor.message_timeout: \"HIL_WheelSpeed\" is not a "
          "message the rig sends on the diagnostics bus"));
  EXPECT_TRUE(has("diagnostics.dtcs[1].debounce.fail_threshold: 0: expected 1..127"));
  EXPECT_TRUE(has("diagnostics.routines[0].channel: \"no.such\" is not a channel"));
}

}  // namespace
}  // namespace hil::config
