#pragma once
// A scenario with faults on RAVON with a counter and CRC on HIL_SteerFeedback
// (tests/tools/faults/e2e), built as every run is (tools/session/run_builder.hpp) and run as
// fast as possible with the built-in ECU; probes of channels in the write phase.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/scenario/scenario_spec.hpp"
#include "runtime/faults/fault_engine.hpp"
#include "tools/session/run_builder.hpp"

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

/// The stages a test adds once the run is built: run in the slot they were added to.
class Probes final : public rt::Stage {
 public:
  void run(const rt::TickContext& c) noexcept override {
    for (rt::Stage* s : stages) s->run(c);
  }
  std::vector<rt::Stage*> stages;
};

class FaultRun {
 public:
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

  explicit FaultRun(config::ScenarioLoadResult loaded) {
    for (const config::ConfigError& e : loaded.errors) ADD_FAILURE() << e.to_string();
    if (!loaded.ok()) return;
    static int n = 0;  // NOLINT: a fresh virtual: bus per run
    loaded.rig->can[0].uri = "virtual:fault_run_" + std::to_string(n++);
    run_ =
        session::RunBuilder({.loaded = session::LoadedRig{.name = "e2e",
                                                          .settings = std::move(*loaded.rig),
                                                          .scenario = std::move(loaded.scenario)},
                             .clock = {.speed = {.mode = session::Speed::Mode::max}, .no_rt = true},
                             .quiet = true,
                             .extra_stages =
                                 [this](TickPlan& plan, Rig&) {
                                   for (const Slot slot : {Slot::judge, Slot::peer_tx}) {
                                     plan.add(slot, "probes", probes_[slot]);
                                   }
                                 }})
            .build();
  }
  /// Setup: `probe` runs in `slot` (judge: before the output faults; peer_tx: after them).
  void add(Slot slot, rt::Stage& probe) { probes_[slot].stages.push_back(&probe); }
  void go() { (void)run_->run_until(run_->scenario_ticks); }

  [[nodiscard]] Rig& rig() const { return *run_->rig; }
  [[nodiscard]] FaultEngine& engine() const { return *run_->faults; }
  [[nodiscard]] const ScenarioJudge& judge() const { return run_->judge->judge(); }
  [[nodiscard]] const ecu::VirtualEcu& builtin_ecu() const { return *run_->ecu; }
  /// The ECU's counters of a message the rig sends.
  const io::can::MessageCounters& ecu(const std::string& message) const {
    const ecu::VirtualEcu& e = *run_->ecu;
    for (std::size_t i = 0; i < e.spec().rx.size(); ++i) {
      if (e.spec().rx[i].message == message) return e.bus().rx_counters(i);
    }
    throw std::runtime_error("no message " + message);
  }
  /// The rig's counters of a message it receives.
  const io::can::MessageCounters& rig_rx(const std::string& message) const {
    const io::can::CanBusSpec& spec = run_->settings.can[0];
    for (std::size_t i = 0; i < spec.rx.size(); ++i) {
      if (spec.rx[i].message == message) return run_->rig->buses()[0]->rx_counters(i);
    }
    throw std::runtime_error("no message " + message);
  }
  static std::uint64_t get(const std::atomic<std::uint64_t>& a) { return a.load(); }

 private:
  std::map<Slot, Probes> probes_;
  std::unique_ptr<session::Run> run_;
};

}  // namespace hil::runtime::fault_testing
