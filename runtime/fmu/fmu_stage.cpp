#include "runtime/fmu/fmu_stage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace hil::runtime {
namespace {

constexpr int kProbeSteps = 50;
constexpr double kBudgetShare = 0.25;  // of the loop period: the vehicle needs the rest

bool all_finite(const std::vector<double>& values) noexcept {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

}  // namespace

FmuStage::FmuStage(config::FmuSpec settings, rt::ChannelTable& table, double period_s)
    : settings_(std::move(settings)), table_(table), period_s_(period_s) {
  for (const config::FmuSpec::Input& in : settings_.inputs) {
    input_refs_.push_back(in.value_reference);
    input_types_.push_back(in.type);
    input_ids_.push_back(table.resolve(in.channel));
    input_values_.push_back(table.spec(input_ids_.back()).initial);
  }
  for (const config::FmuSpec::Output& o : settings_.outputs) {
    output_refs_.push_back(o.value_reference);
    output_types_.push_back(o.type);
  }
  output_values_.resize(output_refs_.size());
  // The probe steps a copy of its own, initialised as the run's instance is
  probe_ = io::fmu::probe_fmu(*open_initialised("probe"),
                              {.input_refs = input_refs_,
                               .input_values = input_values_,
                               .output_refs = output_refs_,
                               .input_types = input_types_,
                               .output_types = output_types_},
                              period_s_ * settings_.every_ticks, kProbeSteps);
  fmu_ = open_initialised(settings_.instance);
  for (const config::FmuSpec::Output& o : settings_.outputs) {
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
  if (!output_refs_.empty() &&
      fmu_->get_as_double(output_types_, output_refs_, output_values_) > 1) {
    throw io::fmu::FmuError(fmt::format("{}: reading the outputs after initialisation failed",
                                        settings_.path.string()));
  }
  if (settings_.thread == config::FmuThread::worker ||
      (settings_.thread == config::FmuThread::automatic && !realtime_safe())) {
    worker_ = std::make_unique<FmuWorker>(std::move(fmu_), input_refs_, output_refs_,
                                          period_s_ * settings_.every_ticks,
                                          FmuWorker::kDefaultDepth, input_types_, output_types_);
  }
}

std::unique_ptr<io::fmu::Fmu> FmuStage::open_initialised(const std::string& instance_name) const {
  auto fmu = io::fmu::Fmu::load(settings_.path);
  fmu->instantiate(instance_name, 0.0, std::nullopt);
  for (const config::FmuSpec::Parameter& p : settings_.parameters) {
    if (fmu->set_as_double({&p.type, 1}, {&p.value_reference, 1}, {&p.value, 1}) > 1) {
      throw io::fmu::FmuError(fmt::format("{}: setting parameter {} = {} failed",
                                          settings_.path.string(), p.name, p.value));
    }
  }
  if (!input_refs_.empty()) (void)fmu->set_as_double(input_types_, input_refs_, input_values_);
  fmu->exit_initialization();
  return fmu;
}

FmuStage::~FmuStage() = default;

void FmuStage::write_outputs(rt::ChannelTable& table, bool safe) noexcept {
  for (std::size_t i = 0; i < output_ids_.size(); ++i) {
    const double v = safe ? settings_.outputs[i].safe : output_values_[i];
    table.set(output_ids_[i], v);
    if (driven_ids_[i]) table.set(*driven_ids_[i], v);
  }
}

void FmuStage::read_inputs() noexcept {
  for (std::size_t i = 0; i < input_ids_.size(); ++i) input_values_[i] = table_.get(input_ids_[i]);
}

void FmuStage::run(const rt::TickContext& c) noexcept {
  if (terminated_at_) return;  // the FMU ended the simulation: its outputs hold
  if (failed_at_ || behind_at_) {
    write_outputs(table_, true);
    return;
  }
  if (worker_) {
    update_on_worker(c);
    return;
  }
  read_inputs();
  const double h = period_s_ * settings_.every_ticks;
  const double t = static_cast<double>(c.tick) * period_s_;
  int status =
      input_refs_.empty() ? 0 : fmu_->set_as_double(input_types_, input_refs_, input_values_);
  if (status <= 1) status = fmu_->do_step(t, h);
  if (status <= 1 && !output_refs_.empty()) {
    status = fmu_->get_as_double(output_types_, output_refs_, output_values_);
  }
  ++steps_;
  if (status <= 1 && fmu_->end_of_step().terminate) {
    terminated_at_ = fmu_->end_of_step().last_successful_time;
  }
  if (status > 1) {
    failed_at_ = t;
    failed_status_ = status;
    write_outputs(table_, true);
    return;
  }
  const bool finite = all_finite(output_values_);
  if (!finite) ++non_finite_;
  write_outputs(table_, !finite);
}

void FmuStage::update_on_worker(const rt::TickContext& c) noexcept {
  const std::int64_t j = c.tick / settings_.every_ticks;  // steps 1..j handed before this tick
  const double t = static_cast<double>(c.tick) * period_s_;
  if (j > 0) take_finished(c.tick, j);
  if (failed_at_) {
    write_outputs(table_, true);
    return;
  }
  read_inputs();
  bool behind = false;
  if (followed_) {  // a replay: behind where the run was, else hand it (waiting for a slot)
    behind = followed(c.tick, true) != nullptr;
    if (behind) {
      ++next_followed_;
    } else {
      (void)worker_->hand(input_values_, t, /*wait=*/true);
    }
  } else {
    behind = !worker_->hand(input_values_, t, /*wait=*/!realtime_);
    if (behind) record({.tick = c.tick, .taken = FmuEvent::kBehind});
  }
  if (behind) behind_at_ = t;
  write_outputs(table_, behind || non_finite_step_);
}

void FmuStage::take_finished(std::int64_t tick, std::int64_t j) noexcept {
  std::int64_t step = j;
  if (followed_) {
    if (const FmuEvent* e = followed(tick, false)) {
      step = e->taken;
      ++next_followed_;
    }
    worker_->wait_for(step);
  } else if (realtime_) {
    step = std::min(worker_->finished(), j);
    if (step < j) record({.tick = tick, .taken = step});
  } else {
    worker_->wait_for(j);
  }
  if (step < j) ++late_;
  if (step <= taken_) return;  // nothing newer: the outputs hold
  taken_ = step;
  if (const std::int64_t k = worker_->terminated_in(step); k != 0) {
    step = k;  // the FMU's last step: its outputs, then they hold
    terminated_at_ = worker_->terminated_at(k);
    steps_ = static_cast<std::uint64_t>(k);
  }
  const std::span<const double> out = worker_->outputs(step);
  std::copy(out.begin(), out.end(), output_values_.begin());
  if (const int status = worker_->status(step); status > 1) {
    failed_at_ = static_cast<double>(step - 1) * period_s_ * settings_.every_ticks;
    failed_status_ = status;
    return;
  }
  non_finite_step_ = !all_finite(output_values_);
  if (non_finite_step_) ++non_finite_;
}

const FmuEvent* FmuStage::followed(std::int64_t tick, bool behind) const noexcept {
  if (next_followed_ >= followed_->size()) return nullptr;
  const FmuEvent& e = (*followed_)[next_followed_];
  return e.tick == tick && (e.taken == FmuEvent::kBehind) == behind ? &e : nullptr;
}

void FmuStage::record(FmuEvent e) noexcept { (void)events_.try_push(e); }

void FmuStage::follow(std::vector<FmuEvent> events) {
  followed_ = std::move(events);
  next_followed_ = 0;
}

std::size_t FmuStage::take_events(std::vector<FmuEvent>& out) {
  return events_.drain([&out](const FmuEvent& e) { out.push_back(e); });
}

std::uint64_t FmuStage::steps() const noexcept {
  if (worker_ && !terminated_at_) return static_cast<std::uint64_t>(worker_->finished());
  return steps_;  // on a worker after the FMU ended: its last step
}

bool FmuStage::realtime_safe() const noexcept {
  return probe_.allocations.value_or(1) == 0 && !probe_.failed &&
         static_cast<double>(probe_.max_step_ns) <= kBudgetShare * period_s_ * 1e9;
}

std::string FmuStage::probe_report() const {
  const double budget_us = kBudgetShare * period_s_ * 1e6;
  std::string verdict = "real-time safe";
  if (!realtime_safe()) {
    verdict = "NOT real-time safe (";
    if (!probe_.allocations) {
      verdict += "its allocations could not be counted";
    } else if (*probe_.allocations != 0) {
      verdict += "it allocates in its steps";
    } else if (probe_.failed) {
      verdict += "a probed step failed";
    } else {
      verdict += "its slowest step is over the budget";
    }
    verdict += ")";
  }
  return fmt::format(
      "{} allocations in {} steps, step median {:.1f} us, max {:.1f} us (budget "
      "{:.1f} us): {}",
      probe_.allocations ? fmt::format("{}", *probe_.allocations) : std::string("uncounted"),
      probe_.steps, static_cast<double>(probe_.median_step_ns) / 1e3,
      static_cast<double>(probe_.max_step_ns) / 1e3, budget_us, verdict);
}

std::string FmuStage::report() const {
  std::string out = fmt::format("fmu {}: {} steps of {} s", settings_.instance, steps(),
                                period_s_ * settings_.every_ticks);
  if (failed_at_) {
    out += fmt::format(", failed at {} s (status {}): outputs at their safe values since",
                       *failed_at_, failed_status_);
  } else {
    out += ", none failed";
  }
  if (terminated_at_) {
    out +=
        fmt::format("; the FMU ended the simulation at {} s: outputs held since", *terminated_at_);
  }
  if (non_finite_ != 0) {
    out += fmt::format("; {} steps with non-finite outputs (safe values)", non_finite_);
  }
  if (!worker_) {
    out += "; on the RT thread";
  } else {
    out += fmt::format("; on a worker thread (outputs one step later), {} late step{}", late_,
                       late_ == 1 ? "" : "s");
    if (behind_at_) {
      out += fmt::format(", {} steps behind at {} s: outputs at their safe values since",
                         worker_->depth(), *behind_at_);
    }
    if (events_.dropped() != 0) {
      out += fmt::format(" ({} events not recorded: the run does not replay identically)",
                         events_.dropped());
    }
  }
  return out + "; probe: " + probe_report();
}

}  // namespace hil::runtime
