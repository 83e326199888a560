// The closed loop on loopback: the RAVON rig's RT loop in this process (real time,
// SCHED_FIFO when permitted) and `hilsim ecu` as a separate process, talking cannelloni over
// UDP on 127.0.0.1 with local= on both ends. The ECU commands 1 m/s for 10 s: the vehicle
// reaches it within 2 %, no frame is lost, every message keeps its period; then SIGTERM stops
// the ECU, the rig's timeout fires within 3 cycles and the vehicle comes to rest.
// Timing assertions are the (±1 tick), never tighter: the ECU-side arrival jitter is
// measured and printed, its mean checked.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "rt_core/executive.hpp"
#include "rt_core/rt_thread.hpp"
#include "runtime/rig.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/udp_test_socket.hpp"

extern char** environ;

namespace hil::tools {
namespace {

constexpr std::int64_t kTicksPerSecond = 4000;            // RAVON: 250 µs
constexpr std::int64_t kStopTick = 10 * kTicksPerSecond;  // 10 simulated seconds of driving
constexpr std::int64_t kTotalTicks = kStopTick + 3 * kTicksPerSecond;
constexpr std::int64_t kEcuCycleTicks = 80;  // ECU_SpeedRef every 20 ms

/// The rig's view: speed at the stop, the timeout's rising edge after it.
class Probe final : public rt::Stage {
 public:
  explicit Probe(runtime::Rig& rig)
      : rig_(rig),
        timeout_(rig.table().resolve("can.ecu.ecu_speed_ref.timeout")),
        park_(rig.table().resolve("vehicle.brake.park")) {}
  void run(const rt::TickContext& c) noexcept override {
    const io::can::MessageCounters& rx = rig_.buses()[0]->rx_counters(0);  // ECU_SpeedRef
    if (c.tick == kStopTick - 1) speed_at_stop = rig_.vehicle()->outputs().velocity_body.x();
    if (c.tick == kStopTick) stop_requested.store(true, std::memory_order_release);
    if (c.tick > kStopTick && timeout_rose < 0 && rig_.table().get(timeout_) == 1.0) {
      timeout_rose = c.tick;
      last_frame = rx.last_tick.load(std::memory_order_relaxed);
    }
    if (c.tick == kTotalTicks - 1) {
      final_speed = rig_.vehicle()->outputs().velocity_body.x();
      park = rig_.table().get(park_);
    }
  }
  std::atomic<bool> stop_requested{false};
  double speed_at_stop = 0.0, final_speed = 1.0, park = 0.0;
  std::int64_t timeout_rose = -1, last_frame = -1;

 private:
  runtime::Rig& rig_;
  rt::ChannelId timeout_, park_;
};

pid_t spawn(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return -1;
  return pid;
}

TEST(EcuLoopback, RavonFollowsAnEcuProcessOverCannelloniAndStopsWhenItDies) {
  std::uint16_t rig_port = 0;
  std::uint16_t ecu_port = 0;
  {  // two free loopback ports (released for the transports to bind)
    const io::can::test::UdpTestSocket a;
    const io::can::test::UdpTestSocket b;
    rig_port = a.port();
    ecu_port = b.port();
  }
  const auto uri = [](std::uint16_t peer, std::uint16_t local) {
    return fmt::format("cannelloni://127.0.0.1:{}?local=127.0.0.1:{}", peer, local);
  };
  const config::LoadResult loaded =
      config::load_rig_config(HIL_SOURCE_DIR "/hil_rigs/ravon/rig.pbtxt");
  ASSERT_TRUE(loaded.ok());
  runtime::Rig rig(*loaded.settings, {.can_uri = uri(ecu_port, rig_port)});
  io::can::FrameTap tap(1 << 16);
  rig.buses()[0]->set_tap(&tap);
  Probe probe(rig);
  runtime::TickPlan plan;
  rig.add_stages(plan);
  plan.add(runtime::Slot::record, "probe", probe);
  rt::MonotonicClock clock;
  rt::Executive exec(loaded.settings->executive, plan.entries(), clock);

  const config::testing::TempDir dir;
  const std::string json = (dir.path() / "ecu.json").string();
  const pid_t ecu = spawn({HILSIM_BINARY, "ecu", "--rig", "ravon", "--can", uri(rig_port, ecu_port),
                           "--speed", "1", "--period", "250us", "--json", json, "--quiet"});
  ASSERT_GT(ecu, 0);

  rt::RtStatus status;
  rt::RunResult result;
  double wall_s = 0.0;
  {
    rt::RtProcessGuard process({.priority = 80, .hold_dma_latency = false}, status);
    rt::RtThread thread({.priority = 80}, status, [&] {
      const auto start = std::chrono::steady_clock::now();
      result = exec.run(kTotalTicks);
      wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
    while (!probe.stop_requested.load(std::memory_order_acquire)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ::kill(ecu, SIGTERM);
  }
  int exit_status = -1;
  ASSERT_EQ(::waitpid(ecu, &exit_status, 0), ecu);
  const rt::TimingSnapshot timing = exec.stats().snapshot();
  // Skipped deadlines (a busy machine) stretch the ticks in wall time; the ECU's clock sees
  // the rig's cycles at this actual tick period
  const double tick_s = wall_s / static_cast<double>(result.ticks);
  std::printf(
      "rig loop: %s; %lld ticks in %.3f s (tick %.2f us), %llu overruns, %llu missed "
      "periods, wake-up p99 %.0f us\n",
      status.summary().c_str(), static_cast<long long>(result.ticks), wall_s, tick_s * 1e6,
      static_cast<unsigned long long>(timing.overruns),
      static_cast<unsigned long long>(timing.missed_periods),
      timing.wake_latency.percentile_us(0.99));

  // The ECU: stopped cleanly by the signal, its summary written
  ASSERT_TRUE(WIFEXITED(exit_status)) << exit_status;
  EXPECT_EQ(WEXITSTATUS(exit_status), 0);
  std::ifstream in(json);
  ASSERT_TRUE(in.good()) << "no " << json;
  const nlohmann::json summary = nlohmann::json::parse(in);
  EXPECT_TRUE(summary["interrupted"].get<bool>());

  // 1 m/s reached within 2 %
  EXPECT_NEAR(probe.speed_at_stop, 1.0, 0.02);

  // No frame lost: the transports' sequence numbers and drops on both ends, and the rig's
  // check of the ECU's alive counters
  const io::can::TransportStats rig_link = rig.buses()[0]->transport().counters().snapshot();
  EXPECT_EQ(rig_link.sequence_lost, 0U);
  EXPECT_EQ(rig_link.total_drops(), 0U);
  EXPECT_EQ(summary["transport"]["sequence_lost"].get<std::uint64_t>(), 0U);
  EXPECT_EQ(summary["transport"]["drops"].get<std::uint64_t>(), 0U);
  for (std::size_t i = 0; i < rig.buses()[0]->rx_count(); ++i) {
    const io::can::MessageCounters& c = rig.buses()[0]->rx_counters(i);
    // > 6 s of 50 Hz: the ECU process talks for ~8 s after hearing the rig, less its own
    // start-up (seconds under a sanitizer)
    EXPECT_GT(c.frames.load(), 300U);
    EXPECT_EQ(c.errors.load(), 0U);
    EXPECT_EQ(c.counter_jumps.load(), 0U);
  }
  for (const nlohmann::json& m : summary["rx"]) {
    EXPECT_EQ(m["errors"].get<std::uint64_t>(), 0U) << m["name"];
    EXPECT_GT(m["frames"].get<std::uint64_t>(), 50U) << m["name"];
  }

  // Periods: every frame the rig sent on its cycle ±1 tick (its tx ticks), and the mean of
  // what the ECU received within ±1 tick of the cycle
  std::map<std::uint32_t, std::vector<std::int64_t>> sent;
  tap.drain([&](const io::can::RecordedFrame& f) {
    if (f.transmitted) sent[f.frame.id].push_back(f.tick);
  });
  EXPECT_EQ(tap.dropped(), 0U);
  for (const io::can::TxMessageSpec& t : loaded.settings->can[0].tx) {
    const io::can::dbc::Message* m = loaded.settings->can[0].database.find_message(t.message);
    const std::int64_t cycle = *m->cycle_time_ms * kTicksPerSecond / 1000;
    const std::vector<std::int64_t>& ticks = sent[m->id];
    ASSERT_GT(ticks.size(), 10U) << t.message;
    for (std::size_t i = 1; i < ticks.size(); ++i) {
      EXPECT_LE(std::abs(ticks[i] - ticks[i - 1] - cycle), 1) << t.message << " at " << ticks[i];
    }
  }
  // On the ECU's side, from the receive timestamps: the mean period is the cycle's ticks at
  // the rig's actual tick period within ±1 tick or the ends' lateness (nothing lost, merged or
  // drifting on the way); the jitter of single periods is printed, not asserted (a noisy VM's
  // scheduling)
  for (const nlohmann::json& m : summary["rx"]) {
    const double cycle = m["cycle_s"].get<double>();
    const double mean = m["period_mean_s"].get<double>();
    std::printf(
        "ECU received %-18s cycle %5.1f ms: mean %7.3f ms, min %6.2f, max %6.2f, "
        "|dev| p99 %5.0f us, max %5.0f us\n",
        m["name"].get<std::string>().c_str(), cycle * 1e3, mean * 1e3,
        m["period_min_s"].get<double>() * 1e3, m["period_max_s"].get<double>() * 1e3,
        m["deviation_p99_us"].get<double>(), m["deviation_max_us"].get<double>());
    const double cycle_ticks = std::round(cycle * kTicksPerSecond);
    // The mean of n-1 periods is (last - first)/(n-1): the two end frames' lateness, at most
    // the largest deviation each, spreads over the n-1 periods
    const double periods = m["periods"].get<double>();
    const double ends = 2.0 * m["deviation_max_us"].get<double>() * 1e-6 / periods;
    // Only without dropped periods is every tick one period long: with skips (a loaded
    // machine, a sanitizer build) the mean tick says nothing about a message's ticks
    if (timing.missed_periods == 0) {
      EXPECT_NEAR(mean, cycle_ticks * tick_s, std::max(tick_s, ends)) << m["name"];
    }
  }

  // The ECU died: its command times out within 3 cycles of its last frame (+1 tick: frames
  // apply at the next tick) and the vehicle comes to rest on the parking brake
  ASSERT_GT(probe.timeout_rose, kStopTick);
  EXPECT_LE(probe.timeout_rose - probe.last_frame, 3 * kEcuCycleTicks + 1);
  EXPECT_EQ(probe.park, 1.0);
  EXPECT_LT(std::abs(probe.final_speed), 0.01);
}

}  // namespace
}  // namespace hil::tools
