#pragma once
// One FMU of the rig in the tick (the fmu slot, after the vehicle): every `every_ticks` ticks
// it sets the FMU's inputs from their channels, steps it by every_ticks periods and writes its
// outputs to fmu.<instance>.<variable> (and to the input channel an output drives, which the
// models read on the next tick). A step that fails (status error or fatal) sends the outputs
// to their safe values — the variable's start value, else 0 — and the FMU is not stepped again
// (FMI: an instance that failed may only be terminated); a step whose outputs are not finite
// sends them to safe values for that step. Both are counted and in the run's summary.
// Setup (constructor) probes a copy of the FMU (fmu_probe.hpp: allocations in its calls, step
// times against a quarter of the loop period), then opens, instantiates and initialises the
// one that runs and adds its channels. The tick allocates nothing of ours; the probe says
// whether the FMU's own code is real-time safe (it runs on the RT thread either way: the
// worker thread for unsafe FMUs is not built yet, docs/fmu.md).
// Thread-safety: update() on the executive's thread; report() after the run.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/fmu_settings.hpp"
#include "io/fmu/fmu.hpp"
#include "io/fmu/fmu_probe.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/task.hpp"

namespace hil::config {

class FmuTask final : public rt::Task {
 public:
  /// Setup: opens the FMU, sets its parameters, initialises it at time 0 and adds its output
  /// channels to `table` (not yet frozen; its input channels must be in it). Throws FmuError.
  FmuTask(FmuSettings settings, rt::ChannelTable& table, double period_s);
  ~FmuTask() override;

  void update(const rt::TickContext& c) noexcept override;

  /// "fmu battery: 12000 steps, 0 failed" or "…, failed at 3.25 s (doStep status 3), outputs
  /// at their safe values since; 2 steps with non-finite outputs".
  [[nodiscard]] std::string report() const;
  [[nodiscard]] std::uint64_t steps() const noexcept { return steps_; }
  [[nodiscard]] bool failed() const noexcept { return failed_at_.has_value(); }
  [[nodiscard]] const io::fmu::ProbeResult& probe() const noexcept { return probe_; }
  /// Allocates nothing and its slowest probed step fits a quarter of the loop period.
  [[nodiscard]] bool realtime_safe() const noexcept;
  /// "0 allocations in 50 steps, step median 0.1 µs, max 0.4 µs (budget 62.5 µs): real-time
  /// safe" or "…: NOT real-time safe (allocates …)".
  [[nodiscard]] std::string probe_report() const;

 private:
  void write_outputs(rt::ChannelTable& table, bool safe) noexcept;
  /// A fresh copy of the FMU (own files, own binary), instantiated, its parameters and the
  /// inputs' initial values set, initialised at t = 0: the run's instance and the probe's.
  [[nodiscard]] std::unique_ptr<io::fmu::Fmu> open_initialised(
      const std::string& instance_name) const;

  FmuSettings settings_;
  std::unique_ptr<io::fmu::Fmu> fmu_;
  rt::ChannelTable& table_;
  double period_s_;
  std::vector<std::uint32_t> input_refs_;
  std::vector<rt::ChannelId> input_ids_;
  std::vector<double> input_values_;
  std::vector<std::uint32_t> output_refs_;
  std::vector<rt::ChannelId> output_ids_;
  std::vector<std::optional<rt::ChannelId>> driven_ids_;
  std::vector<double> output_values_;
  io::fmu::ProbeResult probe_;
  std::uint64_t steps_ = 0;
  std::uint64_t non_finite_ = 0;
  std::optional<double> failed_at_;
  int failed_status_ = 0;
};

}  // namespace hil::config
