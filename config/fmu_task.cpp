#include "config/fmu_task.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>
#include <vector>

namespace hil::config {
namespace {

constexpr int kProbeSteps = 50;
constexpr double kBudgetShare = 0.25;  // of the loop period: the vehicle needs the rest

}  // namespace

FmuTask::FmuTask(FmuSettings settings, rt::ChannelTable& table, double period_s)
    : settings_(std::move(settings)), table_(table), period_s_(period_s) {
  for (const FmuSettings::Input& in : settings_.inputs) {
    input_refs_.push_back(in.value_reference);
    input_ids_.push_back(table.resolve(in.channel));
    input_values_.push_back(table.spec(input_ids_.back()).initial);
  }
  for (const FmuSettings::Output& o : settings_.outputs) output_refs_.push_back(o.value_reference);
  output_values_.resize(output_refs_.size());
  // The probe steps a copy of its own, initialised as the run's instance is
  probe_ = io::fmu::probe_fmu(
      *open_initialised("probe"),
      {.input_refs = input_refs_, .input_values = input_values_, .output_refs = output_refs_},
      period_s_ * settings_.every_ticks, kProbeSteps);
  fmu_ = open_initialised(settings_.instance);
  for (const FmuSettings::Output& o : settings_.outputs) {
    output_ids_.push_back(table.add(
        {.name = o.channel,
         .unit = o.unit,
         .direction = rt::Direction::output,
         .initial = o.safe,
         .description = fmt::format("output {} of FMU {} ({})", o.variable, settings_.instance,
                                    settings_.path.filename().string())}));
    driven_ids_.push_back(o.drives.empty() ? std::nullopt : std::optional(table.resolve(o.drives)));
  }
  // The initial outputs, as initialisation computed them
  if (!output_refs_.empty() && fmu_->get_real(output_refs_, output_values_) > 1) {
    throw io::fmu::FmuError(fmt::format("{}: reading the outputs after initialisation failed",
                                        settings_.path.string()));
  }
}

std::unique_ptr<io::fmu::Fmu> FmuTask::open_initialised(const std::string& instance_name) const {
  auto fmu = io::fmu::Fmu::load(settings_.path);
  fmu->instantiate(instance_name, 0.0, std::nullopt);
  for (const FmuSettings::Parameter& p : settings_.parameters) {
    if (fmu->set_real({&p.value_reference, 1}, {&p.value, 1}) > 1) {
      throw io::fmu::FmuError(fmt::format("{}: setting parameter {} = {} failed",
                                          settings_.path.string(), p.name, p.value));
    }
  }
  if (!input_refs_.empty()) (void)fmu->set_real(input_refs_, input_values_);
  fmu->exit_initialization();
  return fmu;
}

FmuTask::~FmuTask() = default;

void FmuTask::write_outputs(rt::ChannelTable& table, bool safe) noexcept {
  for (std::size_t i = 0; i < output_ids_.size(); ++i) {
    const double v = safe ? settings_.outputs[i].safe : output_values_[i];
    table.set(output_ids_[i], v);
    if (driven_ids_[i]) table.set(*driven_ids_[i], v);
  }
}

void FmuTask::update(const rt::TickContext& c) noexcept {
  if (failed_at_) {
    write_outputs(table_, true);
    return;
  }
  if (c.tick % settings_.every_ticks != 0) {
    write_outputs(table_, false);  // held between the FMU's steps
    return;
  }
  for (std::size_t i = 0; i < input_ids_.size(); ++i) input_values_[i] = table_.get(input_ids_[i]);
  const double h = period_s_ * settings_.every_ticks;
  const double t = static_cast<double>(c.tick) * period_s_;
  int status = input_refs_.empty() ? 0 : fmu_->set_real(input_refs_, input_values_);
  if (status <= 1) status = fmu_->do_step(t, h);
  if (status <= 1 && !output_refs_.empty()) status = fmu_->get_real(output_refs_, output_values_);
  ++steps_;
  if (status > 1) {
    failed_at_ = t;
    failed_status_ = status;
    write_outputs(table_, true);
    return;
  }
  bool finite = true;
  for (const double v : output_values_) finite = finite && std::isfinite(v);
  if (!finite) ++non_finite_;
  write_outputs(table_, !finite);
}

bool FmuTask::realtime_safe() const noexcept {
  return probe_.allocations.value_or(1) == 0 && !probe_.failed &&
         static_cast<double>(probe_.max_step_ns) <= kBudgetShare * period_s_ * 1e9;
}

std::string FmuTask::probe_report() const {
  const double budget_us = kBudgetShare * period_s_ * 1e6;
  std::string verdict = "real-time safe";
  if (!realtime_safe()) {
    verdict = "NOT real-time safe (";
    if (!probe_.allocations) {
      verdict += "its allocations could not be counted";
    } else if (*probe_.allocations != 0) {
      verdict += fmt::format("it allocates in its steps");
    } else if (probe_.failed) {
      verdict += "a probed step failed";
    } else {
      verdict += "its slowest step is over the budget";
    }
    verdict += "; it runs on the RT thread anyway)";
  }
  return fmt::format(
      "{} allocations in {} steps, step median {:.1f} us, max {:.1f} us (budget "
      "{:.1f} us): {}",
      probe_.allocations ? fmt::format("{}", *probe_.allocations) : std::string("uncounted"),
      probe_.steps, static_cast<double>(probe_.median_step_ns) / 1e3,
      static_cast<double>(probe_.max_step_ns) / 1e3, budget_us, verdict);
}

std::string FmuTask::report() const {
  std::string out = fmt::format("fmu {}: {} steps of {} s", settings_.instance, steps_,
                                period_s_ * settings_.every_ticks);
  if (failed_at_) {
    out += fmt::format(", failed at {} s (status {}): outputs at their safe values since",
                       *failed_at_, failed_status_);
  } else {
    out += ", none failed";
  }
  if (non_finite_ != 0) {
    out += fmt::format("; {} steps with non-finite outputs (safe values)", non_finite_);
  }
  return out + "; probe: " + probe_report();
}

}  // namespace hil::config
