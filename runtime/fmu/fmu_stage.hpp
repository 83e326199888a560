#pragma once
// One FMU of the rig in the tick: a stage of the fmu slot (after the vehicle) that the
// executive runs every `every_ticks` ticks (its decimation): it sets the FMU's inputs from
// their channels, steps it by every_ticks periods and writes its outputs to
// fmu.<instance>.<variable> (and to the input channel an output drives, which the models read
// on the next tick); between steps the channels keep them. A step that fails (status error or
// fatal) sends the outputs to their safe values — the variable's start value, else 0 — and the FMU
// is not stepped again (FMI: an instance that failed may only be terminated); a step whose outputs
// are not finite sends them to safe values for that step. Both are counted and in the run's
// summary. The FMU may end the simulation (fmi2Discard with fmi2Terminated, FMI 3
// terminateSimulation): that step's outputs are written, then it is not stepped again and its
// outputs hold — no error; the summary says when. Inputs and outputs of any numeric type map to
// the channels' doubles (config/fmu_spec.hpp). Setup (constructor) probes a copy of the FMU
// (fmu_probe.hpp: allocations in its calls, step times against a quarter of the loop period), then
// opens, instantiates and initialises the one that runs and adds its channels. Where it steps: on
// the RT thread when the probe finds it real-time safe, else (or when the rig says WORKER) on a
// worker thread (fmu_worker.hpp): the inputs of tick (j−1)·N go to step j, whose outputs the
// channels take at tick j·N — one FMU step later than on the RT thread. A run paced by real time
// never waits for the worker: a step not finished when due is late (the outputs hold; the newest
// finished step is taken), and an FMU `depth` steps behind goes to its safe values for good. Both
// are events (FmuEvent) the run records in fmu.log and a replay follows (follow()), so the run
// replays identically. Thread-safety: update() on the executive's thread; take_events() from one
// non-RT thread; the rest in the setup phase or after the run.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/fmu_spec.hpp"
#include "io/fmu/fmu.hpp"
#include "io/fmu/fmu_probe.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/spsc_ring.hpp"
#include "rt_core/stage.hpp"
#include "runtime/fmu/fmu_worker.hpp"
#include "runtime/worker_event.hpp"

namespace hil::runtime {

/// What timing decided for an FMU on a worker thread, at a tick: the channels took the outputs
/// of step `taken`, older than the step due (late), or (taken = kBehind) the FMU fell too far
/// behind and went to its safe values. fmu.log holds them; a replay applies them at their ticks.
using FmuEvent = WorkerEvent;

class FmuStage final : public rt::Stage {
 public:
  /// Setup: opens the FMU, sets its parameters, initialises it at time 0 and adds its output
  /// channels to `table` (not yet frozen; its input channels must be in it). Throws FmuError.
  FmuStage(config::FmuSpec settings, rt::ChannelTable& table, double period_s);
  ~FmuStage() override;

  /// RT: one step of the FMU at tick c.tick (a multiple of every_ticks()).
  void run(const rt::TickContext& c) noexcept override;

  /// "fmu battery: 12000 steps of 0.001 s, none failed; on the RT thread; probe: …" or "…,
  /// failed at 3.25 s (status 3): outputs at their safe values since; on a worker thread
  /// (outputs one step later), 2 late steps; probe: …".
  [[nodiscard]] std::string report() const;
  [[nodiscard]] const std::string& instance() const noexcept { return settings_.instance; }
  /// The stage's decimation: the FMU steps every this many ticks.
  [[nodiscard]] std::uint32_t every_ticks() const noexcept { return settings_.every_ticks; }
  /// Steps the FMU made (on a worker: finished).
  [[nodiscard]] std::uint64_t steps() const noexcept;
  [[nodiscard]] bool failed() const noexcept { return failed_at_.has_value(); }
  /// The time the FMU ended the simulation at (it asked to), if it did.
  [[nodiscard]] std::optional<double> terminated_at() const noexcept { return terminated_at_; }
  [[nodiscard]] const io::fmu::ProbeResult& probe() const noexcept { return probe_; }
  /// Allocates nothing and its slowest probed step fits a quarter of the loop period.
  [[nodiscard]] bool realtime_safe() const noexcept;
  /// "0 allocations in 50 steps, step median 0.1 µs, max 0.4 µs (budget 62.5 µs): real-time
  /// safe" or "…: NOT real-time safe (it allocates in its steps)".
  [[nodiscard]] std::string probe_report() const;

  /// On a worker thread (the probe found it not real-time safe, or the rig says WORKER).
  [[nodiscard]] bool on_worker() const noexcept { return worker_ != nullptr; }
  /// Setup: `realtime` — the run is paced by real time, so the tick never waits for the
  /// worker. Otherwise (the default) it waits: no step is late, the run is deterministic.
  void set_realtime(bool realtime) noexcept { realtime_ = realtime; }
  /// Setup (replay): the run's events for this FMU (fmu.log), applied at their ticks; the tick
  /// waits for the worker as far as they say.
  void follow(std::vector<FmuEvent> events);
  /// One non-RT thread: appends the events since the last call to `out`; returns how many.
  std::size_t take_events(std::vector<FmuEvent>& out);
  /// Steps whose outputs were not finished when due (worker only).
  [[nodiscard]] std::uint64_t late_steps() const noexcept { return late_; }

 private:
  void write_outputs(rt::ChannelTable& table, bool safe) noexcept;
  void read_inputs() noexcept;
  void update_on_worker(const rt::TickContext& c) noexcept;
  /// Worker: the channels take the step due at `tick` (j), or the newest finished one.
  void take_finished(std::int64_t tick, std::int64_t j) noexcept;
  /// The next followed event, if it is at `tick` and (not) kBehind.
  [[nodiscard]] const FmuEvent* followed(std::int64_t tick, bool behind) const noexcept;
  void record(FmuEvent e) noexcept;
  /// A fresh copy of the FMU (own files, own binary), instantiated, its parameters and the
  /// inputs' initial values set, initialised at t = 0: the run's instance and the probe's.
  [[nodiscard]] std::unique_ptr<io::fmu::Fmu> open_initialised(
      const std::string& instance_name) const;

  config::FmuSpec settings_;
  std::unique_ptr<io::fmu::Fmu> fmu_;
  rt::ChannelTable& table_;
  double period_s_;
  std::vector<std::uint32_t> input_refs_;
  std::vector<io::fmu::ValueType> input_types_;
  std::vector<io::fmu::ValueType> output_types_;
  std::optional<double> terminated_at_;
  std::vector<rt::ChannelId> input_ids_;
  std::vector<double> input_values_;
  std::vector<std::uint32_t> output_refs_;
  std::vector<rt::ChannelId> output_ids_;
  std::vector<std::optional<rt::ChannelId>> driven_ids_;
  std::vector<double> output_values_;
  io::fmu::ProbeResult probe_;
  std::uint64_t steps_ = 0;
  std::uint64_t non_finite_ = 0;
  bool non_finite_step_ = false;  ///< the outputs taken last were not finite (worker)
  std::optional<double> failed_at_;
  int failed_status_ = 0;
  // On a worker thread
  std::unique_ptr<FmuWorker> worker_;
  bool realtime_ = false;
  std::int64_t taken_ = 0;  ///< the step whose outputs the channels hold (0: initialisation)
  std::uint64_t late_ = 0;
  std::optional<double> behind_at_;
  rt::SpscRing<FmuEvent> events_{4096};
  std::optional<std::vector<FmuEvent>> followed_;
  std::size_t next_followed_ = 0;
};

}  // namespace hil::runtime
