// RAVON's built-in ECU notices a fault: HIL_WheelSpeeds dropped for 200 ms sets its DTC
// C12300 (wheel_speeds_lost) at the tick its monitor and debouncing give, a tester on the
// same virtual bus reads it over UDS (19 02 FF), clears it (14 FF FF FF), and it stays
// cleared while the messages flow. docs/diagnostics.md.

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/scenario/scenario_spec.hpp"
#include "io/can/isotp/link.hpp"
#include "io/can/transport/transport_factory.hpp"
#include "io/can/uds/uds_codec.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::ecu {
namespace {

namespace uds = io::can::uds;

constexpr std::int64_t kPeriodNs = 250'000;  // RAVON's 250 µs

/// The ECU's diagnostics, known once the run is built (after the tester).
class EcuDiagnosticsRef {
 public:
  void set(const diag::EcuDiagnostics* d) noexcept { d_ = d; }
  [[nodiscard]] const diag::EcuDiagnostics* get() const noexcept { return d_; }

 private:
  const diag::EcuDiagnostics* d_ = nullptr;
};

/// A tester on its own endpoint of the rig's virtual bus: sends `requests` at their ticks
/// (write phase), collects each response with its tick; records the DTC's status each tick.
class Tester final : public rt::Stage {
 public:
  Tester(const std::string& uri, const EcuDiagnosticsRef& ecu)
      : transport_(io::can::open_transport(uri)), link_(link_spec()), ecu_(ecu) {}
  void run(const rt::TickContext& c) noexcept override {
    const std::int64_t now = c.tick * kPeriodNs;
    const std::size_t n = transport_->receive(inbox_, c.tick);
    for (std::size_t i = 0; i < n; ++i) link_.on_frame(inbox_[i].frame, now);
    if (const auto got = link_.take_received()) {
      responses.emplace_back(c.tick, std::vector<std::uint8_t>(got->data.begin(), got->data.end()));
    }
    if (const auto it = requests.find(c.tick); it != requests.end())
      (void)link_.send(it->second, now);
    const std::size_t out = link_.poll(now, outbox_);
    for (std::size_t i = 0; i < out; ++i) (void)transport_->send(outbox_[i], c.tick);
    transport_->flush(c.tick);
    if (const auto* d = ecu_.get()) {
      const std::uint8_t s = d->dtcs().status(0);
      if (statuses.empty() || statuses.back().second != s) statuses.emplace_back(c.tick, s);
    }
  }
  std::map<std::int64_t, std::vector<std::uint8_t>> requests;
  std::vector<std::pair<std::int64_t, std::vector<std::uint8_t>>> responses;
  std::vector<std::pair<std::int64_t, std::uint8_t>> statuses;  ///< C12300's, when it changed

 private:
  static io::can::isotp::LinkSpec link_spec() {
    io::can::isotp::LinkSpec l;
    l.tx_id = 0x7E0;
    l.rx_id = 0x7E8;
    return l;
  }
  std::unique_ptr<io::can::Transport> transport_;
  io::can::isotp::Link link_;
  const EcuDiagnosticsRef& ecu_;
  std::array<io::can::TimedFrame, 64> inbox_{};
  std::array<io::can::CanFrame, 16> outbox_{};
};

TEST(EcuDtc, LostWheelSpeedsSetReadClearedAndNotSetAgain) {
  config::ScenarioLoadResult loaded =
      config::load_scenario_text({"lost.pbtxt", R"(description: "wheel speeds lost for 200 ms"
duration_s: 3
drive { straight { speeds { at_s: 0 speed: 1 } } }
faults { name: "lost" start { at_s: 1 } stop { duration_s: 0.2 }
         message { bus: "ecu" name: "HIL_WheelSpeeds" drop {} } }
)"},
                                 HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  for (const config::ConfigError& e : loaded.errors) ADD_FAILURE() << e.to_string();
  ASSERT_TRUE(loaded.ok());
  loaded.rig->can[0].uri = "virtual:ecu_dtc_test";
  loaded.rig->diagnostics->read_dtcs_every_s = 0;  // the only tester asking: not the rig's
  EcuDiagnosticsRef ecu;
  Tester tester("virtual:ecu_dtc_test", ecu);
  std::array<std::uint8_t, 8> buffer{};
  const auto request = [&](std::size_t n) {
    return std::vector<std::uint8_t>(buffer.begin(),
                                     buffer.begin() + static_cast<std::ptrdiff_t>(n));
  };
  tester.requests[4400] =
      request(uds::build_read_dtc_by_status(uds::dtc_report::kByStatusMask, 0xFF, buffer));
  tester.requests[6000] = request(uds::build_clear_dtc(uds::kAllDtcGroups, buffer));
  tester.requests[11000] =
      request(uds::build_read_dtc_by_status(uds::dtc_report::kByStatusMask, 0xFF, buffer));
  auto run =
      session::RunBuilder({.loaded = session::LoadedRig{.name = "ravon",
                                                        .settings = std::move(*loaded.rig),
                                                        .scenario = std::move(loaded.scenario)},
                           .clock = {.speed = {.mode = session::Speed::Mode::max}, .no_rt = true},
                           .quiet = true,
                           .extra_stages =
                               [&](runtime::TickPlan& plan, runtime::Rig&) {
                                 plan.add(runtime::Slot::record, "tester", tester);
                               }})
          .build();
  ASSERT_NE(run->ecu, nullptr);
  ecu.set(run->ecu->diagnostics());
  ASSERT_NE(ecu.get(), nullptr);
  (void)run->run_until(run->scenario_ticks);

  // At the start three passed tests (ticks 0, 40, 80) take the debounce counter to −3
  // (pass_threshold): tests completed, status 0x00. HIL_WheelSpeeds goes every 40 ticks and is
  // dropped on ticks 4000–4799; the ECU reads the last frame (sent at 3960) at 3961 and misses
  // it from 4082 (more than 120 ticks: 3 cycles). Its monitor tests every 40 ticks (10 ms):
  // failed at 4120 … 4320, the counter −3 → +3 in six steps of 1 (no jump up), at +3
  // (fail_threshold) testFailed, pending and confirmed (confirmation_cycles 1): 0x2F. Frames
  // again from 4800 (read at 4801): passed at 4840 (jump down to 0, then −1), 4880, 4920 (−3):
  // testFailed cleared, 0x2E. The clear sent at 6000 is applied at 6001 (0x50); passed tests at
  // 6040, 6080, 6120: 0x00, and it stays so while the messages flow.
  using Change = std::pair<std::int64_t, std::uint8_t>;
  const std::vector<Change> expected{{0, 0x50},    {80, 0x00},   {4320, 0x2F},
                                     {4920, 0x2E}, {6001, 0x50}, {6120, 0x00}};
  EXPECT_EQ(tester.statuses, expected);

  ASSERT_EQ(tester.responses.size(), 3U);
  const std::vector<std::uint8_t>& dtcs = tester.responses[0].second;  // 59 02 7F then records
  ASSERT_GE(dtcs.size(), 7U);
  EXPECT_EQ(dtcs[0], 0x59);
  EXPECT_EQ(dtcs[3], 0xC1);
  EXPECT_EQ(dtcs[4], 0x23);
  EXPECT_EQ(dtcs[5], 0x00);
  EXPECT_EQ(dtcs[6], 0x2F);  // read at 4400: failing, pending and confirmed
  EXPECT_EQ(tester.responses[1].second, (std::vector<std::uint8_t>{0x54}));
  EXPECT_EQ(tester.responses[2].second[6], 0x00) << "cleared, tested and passing since";
}

}  // namespace
}  // namespace hil::ecu
