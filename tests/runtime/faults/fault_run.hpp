#pragma once
// A scenario with faults on RAVON with a counter and CRC on HIL_SteerFeedback
// (tests/tools/faults/e2e), in virtual time, with the built-in ECU; probes of channels.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/scenario/scenario_settings.hpp"
#include "rt_core/clock.hpp"
#include "rt_core/executive.hpp"
#include "runtime/faults/fault_engine.hpp"
#include "runtime/rig.hpp"
#include "tools/session/rig_setup.hpp"
#include "tools/session/scenario_run.hpp"

namespace hil::runtime::fault_testing {

inline const std::string kRig = HIL_SOURCE_DIR "/tests/tools/faults/e2e/rig.pbtxt";

/// Watches a channel after the models (and after fault_out: `faulted`), per tick.
class Probe final : public rt::Stage {
 public:
  Probe(const rt::ChannelTable& table, const std::string& channel, const std::string& truth)
      : table_(table), channel_(table.resolve(channel)), truth_(table.find(truth)) {}
  void run(const rt::TickContext& c) noexcept override {
    const double v = table_.get(channel_);
    if (first_above < 0 && v > threshold) first_above = c.tick;
    if (truth_) {
      const double t = table_.get(*truth_);
      max_difference = std::max(max_difference, std::abs(v - t));
      if (c.tick == at_tick) {
        value_at = v;
        truth_at = t;
      }
    }
  }
  double threshold = 1e300;
  std::int64_t first_above = -1;
  std::int64_t at_tick = -1;
  double value_at = NAN, truth_at = NAN, max_difference = 0.0;

 private:
  const rt::ChannelTable& table_;
  rt::ChannelId channel_;
  std::optional<rt::ChannelId> truth_;
};

struct FaultRun {
  /// `faults` on a 3 s straight run at 1 m/s.
  explicit FaultRun(const std::string& faults)
      : FaultRun(config::load_scenario_text({"faults.pbtxt", R"(description: "faults"
duration_s: 3
drive { straight { speeds { at_s: 0 speed: 1 } } }
)" + faults},
                                            kRig)) {}
  /// A scenario file on a rig file.
  FaultRun(const std::string& scenario_file, const std::string& rig_file)
      : FaultRun(config::load_scenario(scenario_file, rig_file)) {}

  explicit FaultRun(config::ScenarioLoadResult result) : loaded(std::move(result)) {
    for (const config::ConfigError& e : loaded.errors) ADD_FAILURE() << e.to_string();
    if (!loaded.ok()) return;
    static int n = 0;  // NOLINT: a fresh virtual: bus per run
    loaded.rig->can[0].uri = "virtual:fault_run_" + std::to_string(n++);
    std::vector<config::FaultSettings> all = session::run_faults(*loaded.rig, loaded.scenario);
    runtime = std::make_unique<runtime::Rig>(
        *loaded.rig, runtime::RigOptions{.extra_output_channels = FaultEngine::channels(all)});
    scenario = std::make_unique<session::ScenarioRun>(*runtime, *loaded.scenario);
    scenario->add_stages(plan);
    engine = std::make_unique<FaultEngine>(std::move(all), session::fault_targets(*runtime), 1);
    engine->add_stages(plan);
  }
  void go() {
    rt::VirtualClock clock;
    rt::Executive exec(loaded.rig->executive, plan.entries(), clock);
    (void)exec.run(scenario->ticks());
  }
  /// The ECU's counters of a message the rig sends.
  const io::can::MessageCounters& ecu(const std::string& message) const {
    const ecu::VirtualEcu& e = *scenario->ecu();
    for (std::size_t i = 0; i < e.spec().rx.size(); ++i) {
      if (e.spec().rx[i].message == message) return e.bus().rx_counters(i);
    }
    throw std::runtime_error("no message " + message);
  }
  /// The rig's counters of a message it receives.
  const io::can::MessageCounters& rig_rx(const std::string& message) const {
    const io::can::CanBusSpec& spec = loaded.rig->can[0];
    for (std::size_t i = 0; i < spec.rx.size(); ++i) {
      if (spec.rx[i].message == message) return runtime->buses()[0]->rx_counters(i);
    }
    throw std::runtime_error("no message " + message);
  }
  static std::uint64_t get(const std::atomic<std::uint64_t>& a) { return a.load(); }

  config::ScenarioLoadResult loaded;
  std::unique_ptr<runtime::Rig> runtime;
  std::unique_ptr<session::ScenarioRun> scenario;
  std::unique_ptr<FaultEngine> engine;
  TickPlan plan;
};

}  // namespace hil::runtime::fault_testing
