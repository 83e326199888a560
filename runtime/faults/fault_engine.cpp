#include "runtime/faults/fault_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <variant>

#include "runtime/faults/channel_faults.hpp"
#include "runtime/faults/fault_resolve.hpp"
#include "runtime/faults/fault_state.hpp"
#include "runtime/faults/fault_trigger.hpp"
#include "runtime/faults/message_faults.hpp"

namespace hil::runtime {

namespace {

using detail::Fault;

}  // namespace

class FaultEngine::Impl {
 public:
  static constexpr std::size_t kRuntimeFaults = 64;  ///< faults commands may add
  static constexpr std::size_t kHeldFrames = 256;    ///< frames a delay may hold per message

  Impl(std::vector<config::FaultSpec> settings, const FaultTargets& targets, std::uint64_t seed)
      : targets_(targets), table_(targets.table), period_(targets.period), seed_(seed) {
    // room for the faults commands add while the run goes on: no allocation on the tick
    faults_.reserve(settings.size() + kRuntimeFaults);
    inputs_.reserve(settings.size() + kRuntimeFaults);
    outputs_.reserve(settings.size() + kRuntimeFaults);
    // one silence flag per bus, then one per node of each bus's DBC
    silent_count_ = targets.buses.size();
    for (const auto& bus : targets.buses) {
      node_flags_.push_back(silent_count_);
      silent_count_ += bus->node_count();
    }
    silent_ = std::make_unique<bool[]>(silent_count_);
    // a hook for every message, put on its bus only once a fault targets the message
    for (std::size_t b = 0; b < targets.buses.size(); ++b) {
      const io::can::CanBusSpec& spec = targets.bus_specs[b];
      for (std::size_t i = 0; i < spec.tx.size(); ++i) make_hook(b, true, i);
      for (std::size_t i = 0; i < spec.rx.size(); ++i) make_hook(b, false, i);
    }
    for (config::FaultSpec& s : settings) {
      names_.push_back(s.name);
      faults_.push_back(std::make_unique<Fault>());
      faults_.back()->settings = std::move(s);
      faults_.back()->has_channels = true;
    }
    for (const std::unique_ptr<Fault>& f : faults_) {
      resolve_fault(*f, faults_);
      if (f->hook != nullptr && !f->hook->has_room()) {
        throw std::runtime_error(fmt::format("fault \"{}\": more than {} faults on one message",
                                             f->settings.name, detail::MessageFaults::kMaxFaults));
      }
      attach(*f);
    }
    published_.store(faults_.size(), std::memory_order_release);
  }

  void add_stages(TickPlan& plan, bool always) {
    if (faults_.empty() && !always) return;
    plan.add(Slot::fault_in, "fault_in", in_);
    plan.add(Slot::fault_out, "fault_out", out_);
  }

  void set_event_sink(io::record::TelemetryRecorder* events) noexcept { events_ = events; }
  [[nodiscard]] bool empty() const noexcept { return faults_.empty(); }

  /// Not the RT thread; callers serialise: a fault ready to inject.
  std::unique_ptr<Fault> prepare(config::FaultSpec settings) {
    if (std::holds_alternative<config::FaultAfter>(settings.start)) {
      throw std::invalid_argument(fmt::format(
          "fault \"{}\": one added while the run goes on starts at a time or on a condition, "
          "not after another",
          settings.name));
    }
    {
      const std::lock_guard lock(names_mutex_);
      if (std::find(names_.begin(), names_.end(), settings.name) != names_.end()) {
        throw std::invalid_argument(fmt::format("a fault named \"{}\" exists", settings.name));
      }
      names_.push_back(settings.name);
    }
    auto f = std::make_unique<Fault>();
    f->settings = std::move(settings);
    resolve_fault(*f, {});  // not faults_: the RT thread may be adding to it
    return f;
  }

  /// RT: adds a prepared fault; false when the room for run-time faults is used up.
  bool inject(std::unique_ptr<Fault>& f) noexcept {
    if (faults_.size() == faults_.capacity()) return false;
    if (f->hook != nullptr && !f->hook->has_room()) return false;
    attach(*f);
    faults_.push_back(std::move(f));  // within the capacity: data() stays where it was
    published_.store(faults_.size(), std::memory_order_release);
    return true;
  }

  void marks(std::vector<FaultMark>& out) const {
    out.clear();
    const std::size_t n = published_.load(std::memory_order_acquire);
    const std::unique_ptr<Fault>* all = faults_.data();
    for (std::size_t i = 0; i < n; ++i) {
      const Fault& f = *all[i];
      out.push_back({.name = &f.settings.name,
                     .what = &f.what,
                     .started_at = f.started_at.load(std::memory_order_relaxed),
                     .stopped_at = f.stopped_at.load(std::memory_order_relaxed)});
    }
  }

  /// RT: the fault named `name` stops at the next decision; false if none is running.
  bool clear(std::string_view name) noexcept {
    for (const std::unique_ptr<Fault>& f : faults_) {
      if (f->settings.name == name && !f->stopped) {
        f->force_stop = true;
        return true;
      }
    }
    return false;
  }

  [[nodiscard]] std::vector<FaultReport> report() const {
    std::vector<FaultReport> out;
    for (const std::unique_ptr<Fault>& p : faults_) {
      const Fault& f = *p;
      out.push_back(
          {.name = f.settings.name,
           .what = f.what,
           .first_tick = f.first_active,
           .last_tick = f.last_active,
           .count = f.count,
           .frames = std::holds_alternative<config::MessageFaultSpec>(f.settings.target)});
    }
    return out;
  }

 private:
  static std::size_t hook_key(std::size_t bus, bool tx, std::size_t index) {
    return (bus << 24U) | (index << 1U) | (tx ? 1U : 0U);
  }

  void make_hook(std::size_t bus, bool tx, std::size_t index) {
    const std::size_t key = hook_key(bus, tx, index);
    hooks_[key] = std::make_unique<detail::MessageFaults>(targets_.buses[bus].get(), tx, index,
                                                          kHeldFrames, seed_ ^ key);
  }

  /// Setup (or a command's preparation): the fault's ids, ticks and hook. `faults`: for a
  /// start after another (empty for a command's: it cannot).
  void resolve_fault(Fault& f, std::span<const std::unique_ptr<Fault>> faults) {
    const std::optional<detail::MessageRef> message = detail::resolve_fault(
        f, {.table = table_, .targets = targets_, .period = period_, .seed = seed_}, faults);
    if (!message) return;
    f.hook = hooks_.at(hook_key(message->bus, message->tx, message->index)).get();
    if (f.delay_ticks / message->cycle_ticks + 2 >
        static_cast<std::int64_t>(f.hook->held_capacity())) {
      const auto& m = std::get<config::MessageFaultSpec>(f.settings.target);
      throw std::invalid_argument(fmt::format(
          "fault \"{}\": a delay of {} ms holds more frames of {} than the {} a message can",
          f.settings.name, m.delay_ms, m.message, f.hook->held_capacity()));
    }
  }

  /// Setup, or RT for a command's fault: where the fault acts (lists sized at setup).
  void attach(Fault& f) noexcept {
    if (std::holds_alternative<config::ChannelFaultSpec>(f.settings.target)) {
      (f.input ? inputs_ : outputs_).push_back(&f);
    } else if (std::holds_alternative<config::BusFaultSpec>(f.settings.target)) {
      if (f.node >= 0) {
        targets_.buses[f.bus]->set_node_silence(f.node, &silent_[silence_flag(f)]);
      } else {
        targets_.buses[f.bus]->set_silence(&silent_[f.bus]);
      }
    } else {
      f.hook->install();
      (void)f.hook->add(f);
    }
  }

  /// RT: which faults are on at `tick`.
  void decide(std::int64_t tick) noexcept {
    for (const std::unique_ptr<Fault>& p : faults_) {
      Fault& f = *p;
      detail::advance_trigger(f, tick, table_,
                              f.start == Fault::Start::after && faults_[f.after]->stopped);
      if (f.active && f.first_active == tick) {
        f.started_at.store(tick, std::memory_order_relaxed);
        if (events_ != nullptr) (void)events_->push_event(tick, "fault", event_text("start", f));
      }
      if (f.stopped && !f.stop_reported) {
        f.stop_reported = true;
        f.stopped_at.store(tick, std::memory_order_relaxed);
        if (events_ != nullptr) (void)events_->push_event(tick, "fault", event_text("stop", f));
      }
    }
    for (std::size_t b = 0; b < silent_count_; ++b) silent_[b] = false;
    for (const std::unique_ptr<Fault>& f : faults_) {
      if (f->active && std::holds_alternative<config::BusFaultSpec>(f->settings.target)) {
        silent_[silence_flag(*f)] = true;
      }
    }
  }

  /// The flag a bus or node silence sets.
  [[nodiscard]] std::size_t silence_flag(const Fault& f) const noexcept {
    return f.node >= 0 ? node_flags_[f.bus] + static_cast<std::size_t>(f.node) : f.bus;
  }

  /// "start lost_speeds: drop of …", in a fixed buffer (the recorder keeps 150 bytes).
  std::string_view event_text(std::string_view verb, const Fault& f) noexcept {
    const auto out = fmt::format_to_n(event_text_.data(), event_text_.size(), "{} {}: {}", verb,
                                      f.settings.name, f.what);
    return {event_text_.data(), std::min(out.size, event_text_.size())};
  }

  void fault_in(std::int64_t tick) noexcept {
    decide(tick);
    for (Fault* f : inputs_) detail::apply_channel_fault(*f, table_, tick, period_);
  }

  void fault_out(std::int64_t tick) noexcept {
    for (Fault* f : outputs_) detail::apply_channel_fault(*f, table_, tick, period_);
    for (const std::unique_ptr<Fault>& f : faults_) {
      if (!f->has_channels) continue;
      table_.set(f->active_channel, f->active ? 1.0 : 0.0);
      table_.set(f->count_channel, static_cast<double>(f->count));
    }
  }

  FaultTargets targets_;
  rt::ChannelTable& table_;
  rt::Nanoseconds period_;
  std::uint64_t seed_;
  std::vector<std::unique_ptr<Fault>> faults_;  // capacity reserved: no allocation on the tick
  std::atomic<std::size_t> published_{0};       ///< faults_ other threads may read
  std::vector<Fault*> inputs_, outputs_;
  std::map<std::size_t, std::unique_ptr<detail::MessageFaults>> hooks_;
  std::unique_ptr<bool[]> silent_;
  std::size_t silent_count_ = 0;
  std::vector<std::size_t> node_flags_;  ///< per bus: its first node's flag in silent_
  io::record::TelemetryRecorder* events_ = nullptr;
  std::array<char, 150> event_text_{};
  std::mutex names_mutex_;
  std::vector<std::string> names_;  ///< every fault's name: one added later must differ
  rt::MethodStage<&Impl::fault_in> in_{*this};
  rt::MethodStage<&Impl::fault_out> out_{*this};
};

std::vector<rt::ChannelSpec> FaultEngine::channels(const std::vector<config::FaultSpec>& faults) {
  std::vector<rt::ChannelSpec> out;
  for (const config::FaultSpec& f : faults) {
    const std::string stem = "fault." + config::fault_channel_stem(f.name);
    out.push_back(
        {.name = stem + ".active", .unit = "-", .description = "1 while the fault is on"});
    out.push_back({.name = stem + ".count",
                   .unit = "-",
                   .description = "frames it affected (message faults) or ticks it was on"});
    if (std::holds_alternative<config::ChannelFaultSpec>(f.target)) {
      out.push_back({.name = stem + ".original",
                     .unit = "-",
                     .description = "the channel's value without the fault (the truth)"});
    }
  }
  return out;
}

FaultEngine::FaultEngine(std::vector<config::FaultSpec> faults, const FaultTargets& targets,
                         std::uint64_t seed)
    : impl_(std::make_unique<Impl>(std::move(faults), targets, seed)) {}
FaultEngine::~FaultEngine() = default;
PreparedFault::~PreparedFault() = default;
void FaultEngine::add_stages(TickPlan& plan, bool always) { impl_->add_stages(plan, always); }
std::unique_ptr<PreparedFault> FaultEngine::prepare(config::FaultSpec fault) {
  auto out = std::make_unique<PreparedFault>();
  out->fault = impl_->prepare(std::move(fault));
  return out;
}
bool FaultEngine::inject(std::unique_ptr<PreparedFault>& fault) noexcept {
  return impl_->inject(fault->fault);
}
bool FaultEngine::clear(std::string_view name) noexcept { return impl_->clear(name); }
void FaultEngine::set_event_sink(io::record::TelemetryRecorder* events) noexcept {
  impl_->set_event_sink(events);
}
bool FaultEngine::empty() const noexcept { return impl_->empty(); }
std::vector<FaultReport> FaultEngine::report() const { return impl_->report(); }
void FaultEngine::marks(std::vector<FaultMark>& out) const { impl_->marks(out); }

std::string format_faults(const std::vector<FaultReport>& report) {
  std::string out;
  for (const FaultReport& r : report) {
    if (!out.empty()) out += "; ";
    if (r.first_tick < 0) {
      out += fmt::format("{} ({}) never on", r.name, r.what);
    } else {
      out += fmt::format("{} ({}) ticks {}–{}, {} {}", r.name, r.what, r.first_tick, r.last_tick,
                         r.count, r.frames ? "frames" : "ticks");
    }
  }
  return out;
}

}  // namespace hil::runtime
