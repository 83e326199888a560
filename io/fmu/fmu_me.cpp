#include "io/fmu/fmu_me.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "io/fmu/fmi_api.hpp"

namespace hil::io::fmu {
namespace {

constexpr int kMaxEventIterations = 100;
constexpr int kMaxSubsteps = 64;  // time events and located state events in one step
constexpr int kMaxBisections = 60;
constexpr double kLocateTolerance = 1e-12;  // [s] bisection's bracket

/// Times within this of each other are the same instant (steps are sums of periods).
double same_instant(double t) noexcept { return 1e-9 * std::max(1.0, std::abs(t)); }

template <typename Status>
int code(Status s) noexcept {
  return static_cast<int>(s);
}

}  // namespace

struct ModelExchange::Functions {
  fmi2::EnterEventMode enter_event2 = nullptr;
  fmi2::NewDiscreteStates new_discrete2 = nullptr;
  fmi2::EnterContinuousTimeMode enter_ct2 = nullptr;
  fmi2::CompletedIntegratorStep completed2 = nullptr;
  fmi2::SetTime set_time2 = nullptr;
  fmi2::SetContinuousStates set_x2 = nullptr;
  fmi2::GetDerivatives get_dx2 = nullptr;
  fmi2::GetEventIndicators get_z2 = nullptr;
  fmi2::GetContinuousStates get_x2 = nullptr;
  fmi3::InstantiateModelExchange instantiate3 = nullptr;
  fmi3::EnterEventMode enter_event3 = nullptr;
  fmi3::UpdateDiscreteStates update3 = nullptr;
  fmi3::EnterContinuousTimeMode enter_ct3 = nullptr;
  fmi3::CompletedIntegratorStep completed3 = nullptr;
  fmi3::SetTime set_time3 = nullptr;
  fmi3::SetContinuousStates set_x3 = nullptr;
  fmi3::GetContinuousStateDerivatives get_dx3 = nullptr;
  fmi3::GetEventIndicators get_z3 = nullptr;
  fmi3::GetContinuousStates get_x3 = nullptr;
  fmi3::SetClock set_clock3 = nullptr;
};

ModelExchange::ModelExchange(void* library, FmiVersion version, MeModel model, std::string file)
    : f_(std::make_unique<Functions>()),
      version_(version),
      model_(std::move(model)),
      file_(std::move(file)) {
  const auto resolve = [&]<typename F>(F& target, const char* name) {
    void* symbol = dlsym(library, name);
    if (symbol == nullptr) {
      throw FmuError(
          fmt::format("{}: the binary has no function {} (model exchange)", file_, name));
    }
    target = reinterpret_cast<F>(symbol);
  };
  Functions& f = *f_;
  if (version_ == FmiVersion::fmi3) {
    resolve(f.instantiate3, "fmi3InstantiateModelExchange");
    resolve(f.enter_event3, "fmi3EnterEventMode");
    resolve(f.update3, "fmi3UpdateDiscreteStates");
    resolve(f.enter_ct3, "fmi3EnterContinuousTimeMode");
    resolve(f.completed3, "fmi3CompletedIntegratorStep");
    resolve(f.set_time3, "fmi3SetTime");
    resolve(f.set_x3, "fmi3SetContinuousStates");
    resolve(f.get_dx3, "fmi3GetContinuousStateDerivatives");
    resolve(f.get_z3, "fmi3GetEventIndicators");
    resolve(f.get_x3, "fmi3GetContinuousStates");
    if (!model_.clocks.empty()) resolve(f.set_clock3, "fmi3SetClock");
  } else {
    resolve(f.enter_event2, "fmi2EnterEventMode");
    resolve(f.new_discrete2, "fmi2NewDiscreteStates");
    resolve(f.enter_ct2, "fmi2EnterContinuousTimeMode");
    resolve(f.completed2, "fmi2CompletedIntegratorStep");
    resolve(f.set_time2, "fmi2SetTime");
    resolve(f.set_x2, "fmi2SetContinuousStates");
    resolve(f.get_dx2, "fmi2GetDerivatives");
    resolve(f.get_z2, "fmi2GetEventIndicators");
    resolve(f.get_x2, "fmi2GetContinuousStates");
  }
  const std::size_t n = model_.states;
  for (std::vector<double>* v : {&x_, &x0_, &xt_, &k1_, &k2_, &k3_, &k4_}) v->assign(n, 0.0);
  z_pre_.assign(model_.event_indicators, 0.0);
  z_.assign(model_.event_indicators, 0.0);
  clock_k_.assign(model_.clocks.size(), 0);
  clock_refs_.reserve(model_.clocks.size());
  clock_on_ = std::make_unique<bool[]>(std::max<std::size_t>(model_.clocks.size(), 1));
  for (std::size_t i = 0; i < model_.clocks.size(); ++i) clock_on_[i] = true;
  event_times_.reserve(kMaxEventLog);
}

ModelExchange::~ModelExchange() = default;

void* ModelExchange::instantiate3() const noexcept {
  return reinterpret_cast<void*>(f_->instantiate3);
}

int ModelExchange::fail(const char* why) noexcept {
  failure_ = why;
  return code(fmi2::Status::error);
}

int ModelExchange::derivatives(double t, const std::vector<double>& x,
                               std::vector<double>& dx) noexcept {
  const Functions& f = *f_;
  const std::size_t n = x.size();
  if (version_ == FmiVersion::fmi3) {
    int s = code(f.set_time3(instance_, t));
    if (s <= 1) s = std::max(s, code(f.set_x3(instance_, x.data(), n)));
    if (s <= 1) s = std::max(s, code(f.get_dx3(instance_, dx.data(), n)));
    return s;
  }
  int s = code(f.set_time2(instance_, t));
  if (s <= 1) s = std::max(s, code(f.set_x2(instance_, x.data(), n)));
  if (s <= 1) s = std::max(s, code(f.get_dx2(instance_, dx.data(), n)));
  return s;
}

int ModelExchange::integrate(double t0, const std::vector<double>& x0, double h,
                             std::vector<double>& x) noexcept {
  ++counts_.substeps;
  const std::size_t n = x0.size();
  int s = 0;
  if (n > 0) {
    // Forward Euler, or the classical RK4 (Kutta 1901; as rt_core/rk4.hpp)
    s = derivatives(t0, x0, k1_);
    if (solver_ == MeSolver::euler) {
      for (std::size_t i = 0; i < n; ++i) x[i] = x0[i] + h * k1_[i];
    } else {
      for (std::size_t i = 0; i < n && s <= 1; ++i) xt_[i] = x0[i] + 0.5 * h * k1_[i];
      if (s <= 1) s = std::max(s, derivatives(t0 + 0.5 * h, xt_, k2_));
      for (std::size_t i = 0; i < n && s <= 1; ++i) xt_[i] = x0[i] + 0.5 * h * k2_[i];
      if (s <= 1) s = std::max(s, derivatives(t0 + 0.5 * h, xt_, k3_));
      for (std::size_t i = 0; i < n && s <= 1; ++i) xt_[i] = x0[i] + h * k3_[i];
      if (s <= 1) s = std::max(s, derivatives(t0 + h, xt_, k4_));
      for (std::size_t i = 0; i < n; ++i) {
        x[i] = x0[i] + h / 6.0 * (k1_[i] + 2.0 * k2_[i] + 2.0 * k3_[i] + k4_[i]);
      }
    }
    if (s > 1) return s;
    if (!std::ranges::all_of(x, [](double v) { return std::isfinite(v); })) {
      return fail(
          "the continuous states are not finite (a step beyond the solver's stability "
          "bound, or the model diverges)");
    }
  }
  // Leave the FMU at the step's end: its outputs and indicators are those of (t0 + h, x)
  const Functions& f = *f_;
  if (version_ == FmiVersion::fmi3) {
    s = std::max(s, code(f.set_time3(instance_, t0 + h)));
    if (n > 0 && s <= 1) s = std::max(s, code(f.set_x3(instance_, x.data(), n)));
  } else {
    s = std::max(s, code(f.set_time2(instance_, t0 + h)));
    if (n > 0 && s <= 1) s = std::max(s, code(f.set_x2(instance_, x.data(), n)));
  }
  return s;
}

bool ModelExchange::crossed(const std::vector<double>& z) const noexcept {
  for (std::size_t i = 0; i < z.size(); ++i) {
    if ((z_pre_[i] > 0.0) != (z[i] > 0.0)) return true;
  }
  return false;
}

double ModelExchange::next_clock_time() const noexcept {
  double next = INFINITY;
  for (std::size_t i = 0; i < model_.clocks.size(); ++i) {
    const MeClock& c = model_.clocks[i];
    next = std::min(next, c.shift + static_cast<double>(clock_k_[i]) * c.interval);
  }
  return next;
}

int ModelExchange::handle_event(bool clocks_due) noexcept {
  if (event_times_.size() < kMaxEventLog) event_times_.push_back(t_);
  const int s = version_ == FmiVersion::fmi3 ? code(f_->enter_event3(instance_))
                                             : code(f_->enter_event2(instance_));
  if (s > 1) return s;
  return std::max(s, event_iteration(clocks_due, false));
}

int ModelExchange::event_iteration(bool clocks_due, bool read_states) noexcept {
  const Functions& f = *f_;
  const bool v3 = version_ == FmiVersion::fmi3;
  int s = 0;
  if (clocks_due) {
    clock_refs_.clear();
    for (std::size_t i = 0; i < model_.clocks.size(); ++i) {
      const MeClock& c = model_.clocks[i];
      if (c.shift + static_cast<double>(clock_k_[i]) * c.interval <= t_ + same_instant(t_)) {
        clock_refs_.push_back(c.value_reference);
        ++clock_k_[i];
        ++counts_.clock_ticks;
      }
    }
    if (!clock_refs_.empty()) {
      s = code(f.set_clock3(instance_, clock_refs_.data(), clock_refs_.size(), clock_on_.get()));
    }
  }
  bool values_changed = read_states;
  int round = 0;
  for (; round < kMaxEventIterations && s <= 1; ++round) {
    bool again = false;
    bool terminate = false;
    if (v3) {
      bool nominals = false;
      bool values = false;
      bool defined = false;
      double next = 0.0;
      s = std::max(
          s, code(f.update3(instance_, &again, &terminate, &nominals, &values, &defined, &next)));
      values_changed = values_changed || values;
      next_event_defined_ = defined;
      next_event_ = next;
    } else {
      fmi2::EventInfo info{};
      s = std::max(s, code(f.new_discrete2(instance_, &info)));
      again = info.new_discrete_states_needed != 0;
      terminate = info.terminate_simulation != 0;
      values_changed = values_changed || info.values_of_continuous_states_changed != 0;
      next_event_defined_ = info.next_event_time_defined != 0;
      next_event_ = info.next_event_time;
    }
    if (terminate) {
      terminated_ = true;
      terminated_at_ = t_;
      return s;
    }
    if (!again) break;
  }
  if (s > 1) return s;
  if (round == kMaxEventIterations) return fail("the event iteration did not end in 100 rounds");
  s = std::max(s, v3 ? code(f.enter_ct3(instance_)) : code(f.enter_ct2(instance_)));
  const std::size_t n = x_.size();
  if (values_changed && n > 0 && s <= 1) {
    // Re-initialisation: the FMU changed its states in the event
    s = std::max(
        s, v3 ? code(f.get_x3(instance_, x_.data(), n)) : code(f.get_x2(instance_, x_.data(), n)));
  }
  if (!z_pre_.empty() && s <= 1) {
    s = std::max(s, v3 ? code(f.get_z3(instance_, z_pre_.data(), z_pre_.size()))
                       : code(f.get_z2(instance_, z_pre_.data(), z_pre_.size())));
  }
  return s;
}

void ModelExchange::start() {
  const double start_time = t_;
  for (std::size_t i = 0; i < model_.clocks.size(); ++i) {
    // The first tick at or after the start
    const MeClock& c = model_.clocks[i];
    const double k = std::ceil((start_time - c.shift) / c.interval - 1e-9);
    clock_k_[i] = k > 0.0 ? static_cast<std::uint64_t>(k) : 0;
  }
  // exitInitializationMode leaves the FMU in event mode: the first event iteration there
  const int s = event_iteration(next_clock_time() <= t_ + same_instant(t_), true);
  if (s > 1) {
    throw FmuError(fmt::format("{}: the initial event iteration failed (status {}{}{})", file_, s,
                               *failure_ != 0 ? ": " : "", failure_));
  }
}

int ModelExchange::step(double time, double step) noexcept {
  failure_ = "";
  if (terminated_) return 0;  // the FMU ended the simulation: it holds
  const Functions& f = *f_;
  const bool v3 = version_ == FmiVersion::fmi3;
  const double t_end = time + step;
  int s = 0;
  for (int sub = 0; t_ < t_end - same_instant(t_end); ++sub) {
    if (sub == kMaxSubsteps) return fail("more than 64 events in one step");
    // A time event or a clock tick inside the step splits it, so it is hit exactly
    double target = t_end;
    bool time_event = false;
    if (next_event_defined_ && next_event_ <= t_end + same_instant(t_end)) {
      target = std::max(next_event_, t_);
      time_event = true;
    }
    const double clock = next_clock_time();
    const bool clocks_due = clock <= target + same_instant(target);
    if (clocks_due) target = std::max(std::min(target, clock), t_);
    time_event = time_event && next_event_ <= target + same_instant(target);
    // Within one instant of the step's end, the end is the event's time
    if (std::abs(target - t_end) <= same_instant(t_end)) target = t_end;

    x0_ = x_;  // no allocation: same size
    const double t0 = t_;
    if (target > t0) s = std::max(s, integrate(t0, x0_, target - t0, x_));
    if (s > 1) return s;
    t_ = target;
    bool state_event = false;
    if (!z_.empty()) {
      s = std::max(s, v3 ? code(f.get_z3(instance_, z_.data(), z_.size()))
                         : code(f.get_z2(instance_, z_.data(), z_.size())));
      if (s > 1) return s;
      state_event = crossed(z_);
      if (state_event && location_ == EventLocation::bisection && target > t0) {
        // Bisection on the one-step solution from (t0, x0): the first time the sign changed
        double lo = t0;
        double hi = target;
        for (int b = 0; b < kMaxBisections && hi - lo > kLocateTolerance; ++b) {
          const double mid = 0.5 * (lo + hi);
          s = std::max(s, integrate(t0, x0_, mid - t0, x_));
          s = std::max(s, v3 ? code(f.get_z3(instance_, z_.data(), z_.size()))
                             : code(f.get_z2(instance_, z_.data(), z_.size())));
          if (s > 1) return s;
          (crossed(z_) ? hi : lo) = mid;
        }
        s = std::max(s, integrate(t0, x0_, hi - t0, x_));  // just past the crossing
        if (s > 1) return s;
        t_ = hi;
        if (hi < target) {
          time_event = false;
        }
      }
    }
    bool step_event = false;
    bool terminate = false;
    if (v3) {
      s = std::max(s, code(f.completed3(instance_, true, &step_event, &terminate)));
    } else {
      int enter = 0;
      int term = 0;
      s = std::max(s, code(f.completed2(instance_, 1, &enter, &term)));
      step_event = enter != 0;
      terminate = term != 0;
    }
    if (s > 1) return s;
    if (terminate) {
      terminated_ = true;
      terminated_at_ = t_;
      return s;
    }
    const bool clocks_now = clocks_due && next_clock_time() <= t_ + same_instant(t_);
    if (state_event || time_event || step_event || clocks_now) {
      counts_.state_events += state_event ? 1 : 0;
      counts_.time_events += time_event ? 1 : 0;
      counts_.step_events += step_event ? 1 : 0;
      s = std::max(s, handle_event(clocks_now));
      if (s > 1 || terminated_) return s;
    } else if (!z_.empty()) {
      z_pre_ = z_;
    }
  }
  return s;
}

}  // namespace hil::io::fmu
