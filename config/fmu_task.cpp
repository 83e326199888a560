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
  {  // the probe, on a copy of its own
    std::vector<std::uint32_t> parameter_refs;
    std::vector<double> parameter_values;
    for (const FmuSettings::Parameter& p : settings_.parameters) {
      parameter_refs.push_back(p.value_reference);
      parameter_values.push_back(p.value);
    }
    std::vector<std::uint32_t> input_refs;
    std::vector<double> input_values;
    for (const FmuSettings::Input& in : settings_.inputs) {
      input_refs.push_back(in.value_reference);
      input_values.push_back(table.spec(table.resolve(in.channel)).initial);
    }
    std::vector<std::uint32_t> output_refs;
    for (const FmuSettings::Output& o : settings_.outputs) output_refs.push_back(o.value_reference);
    probe_ = io::fmu::probe_fmu(settings_.path,
                                {.parameter_refs = parameter_refs,
                                 .parameter_values = parameter_values,
                                 .input_refs = input_refs,
                                 .input_values = input_values,
                                 .output_refs = output_refs},
                                period_s_ * settings_.every_ticks, kProbeSteps);
  }
  fmu_ = io::fmu::Fmu::load(settings_.path);
  fmu_->instantiate(settings_.instance, 0.0, std::nullopt);
  for (const FmuSettings::Parameter& p : settings_.parameters) {
    if (fmu_->set_real({&p.value_reference, 1}, {&p.value, 1}) > 1) {
      throw io::fmu::FmuError(fmt::format("{}: setting parameter {} = {} failed",
                                          settings_.path.string(), p.name, p.value));
    }
  }
  for (const FmuSettings::Input& in : settings_.inputs) {
    input_refs_.push_back(in.value_reference);
    input_ids_.push_back(table.resolve(in.channel));
  }
  input_values_.resize(input_refs_.size());
  for (std::size_t i = 0; i < input_ids_.size(); ++i) {
    input_values_[i] = table.spec(input_ids_[i]).initial;
  }
  if (!input_refs_.empty()) (void)fmu_->set_real(input_refs_, input_values_);
  fmu_->exit_initialization();
  for (const FmuSettings::Output& o : settings_.outputs) {
    output_refs_.push_back(o.value_reference);
    output_ids_.push_back(table.add(
        {.name = o.channel,
         .unit = o.unit,
         .direction = rt::Direction::output,
         .initial = o.safe,
         .description = fmt::format("output {} of FMU {} ({})", o.variable, settings_.instance,
                                    settings_.path.filename().string())}));
    driven_ids_.push_back(o.drives.empty() ? std::nullopt : std::optional(table.resolve(o.drives)));
  }
  output_values_.resize(output_refs_.size());
  // The initial outputs, as initialisation computed them
  if (!output_refs_.empty() && fmu_->get_real(output_refs_, output_values_) > 1) {
    throw io::fmu::FmuError(fmt::format("{}: reading the outputs after initialisation failed",
                                        settings_.path.string()));
  }
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
