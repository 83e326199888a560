#include "tools/faults/fault_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>

#include "tools/faults/channel_faults.hpp"
#include "tools/faults/fault_state.hpp"
#include "tools/faults/message_faults.hpp"

namespace hil::faults {

namespace detail {

bool Condition::holds(std::int64_t tick, double v) noexcept {
  using Test = config::FaultCondition::Test;
  if (test == Test::crosses) {  // the tick the value passes `value`, either way
    const bool crossed = has_last && (last - value) * (v - value) <= 0.0 && last != v;
    last = v;
    has_last = true;
    return crossed;
  }
  const bool now = test == Test::above ? v > value : v < value;
  if (!now) {
    true_since = -1;
    return false;
  }
  if (true_since < 0) true_since = tick;
  return tick - true_since >= debounce;
}

}  // namespace detail

namespace {

using detail::Fault;

/// ceil(seconds / period) in ticks, robust to the decimal's binary error.
std::int64_t ceil_ticks(double seconds, rt::Nanoseconds period) {
  return static_cast<std::int64_t>(std::ceil(seconds * 1e9 / static_cast<double>(period) - 1e-6));
}
std::int64_t round_ticks(double seconds, rt::Nanoseconds period) {
  return std::llround(seconds * 1e9 / static_cast<double>(period));
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

std::string describe(const config::FaultSettings& f) {
  static constexpr const char* kChannelOps[] = {"force", "stuck", "offset", "gain",
                                                "noise", "drift", "delay",  "nan"};
  static constexpr const char* kMessageOps[] = {"drop",    "delay",  "cycle", "dlc",      "crc",
                                                "counter", "signal", "bits",  "duplicate"};
  if (const auto* c = std::get_if<config::ChannelFaultSettings>(&f.target)) {
    return fmt::format("{} of {}", kChannelOps[static_cast<int>(c->op)], c->channel);
  }
  if (const auto* m = std::get_if<config::MessageFaultSettings>(&f.target)) {
    return fmt::format("{} of {} on {}", kMessageOps[static_cast<int>(m->op)], m->message, m->bus);
  }
  return fmt::format("silence of bus {}", std::get<config::BusFaultSettings>(f.target).bus);
}

detail::Condition resolve(const config::FaultCondition& c, const rt::ChannelTable& table,
                          rt::Nanoseconds period) {
  return {.channel = table.resolve(c.channel),
          .test = c.test,
          .value = c.value,
          .debounce = round_ticks(c.for_s, period)};
}

class PhaseTask final : public rt::Task {
 public:
  using Fn = void (*)(void*, const rt::TickContext&) noexcept;
  PhaseTask(void* self, Fn fn) : self_(self), fn_(fn) {}
  void read(const rt::TickContext& c) noexcept override { fn_(self_, c); }
  void update(const rt::TickContext& /*c*/) noexcept override {}
  void write(const rt::TickContext& c) noexcept override { fn_(self_, c); }

 private:
  void* self_;
  Fn fn_;
};

}  // namespace

class FaultEngine::Impl {
 public:
  static constexpr std::size_t kRuntimeFaults = 64;  ///< faults commands may add
  static constexpr std::size_t kHeldFrames = 256;    ///< frames a delay may hold per message

  Impl(std::vector<config::FaultSettings> settings, config::RigRuntime& rig, std::uint64_t seed)
      : rig_(rig),
        table_(rig.table()),
        period_(rig.settings().executive.period),
        seed_(seed),
        in_(this,
            [](void* s, const rt::TickContext& c) noexcept {
              static_cast<Impl*>(s)->fault_in(c.tick);
            }),
        out_(this, [](void* s, const rt::TickContext& c) noexcept {
          static_cast<Impl*>(s)->fault_out(c.tick);
        }) {
    // room for the faults commands add while the run goes on: no allocation on the tick
    faults_.reserve(settings.size() + kRuntimeFaults);
    inputs_.reserve(settings.size() + kRuntimeFaults);
    outputs_.reserve(settings.size() + kRuntimeFaults);
    silent_count_ = rig.buses().size();
    silent_ = std::make_unique<bool[]>(silent_count_);
    // a hook for every message, put on its bus only once a fault targets the message
    for (std::size_t b = 0; b < rig.buses().size(); ++b) {
      const io::can::CanBusSpec& spec = rig.settings().can[b];
      for (std::size_t i = 0; i < spec.tx.size(); ++i) make_hook(b, true, i);
      for (std::size_t i = 0; i < spec.rx.size(); ++i) make_hook(b, false, i);
    }
    for (config::FaultSettings& s : settings) {
      names_.push_back(s.name);
      faults_.push_back(std::make_unique<Fault>());
      faults_.back()->settings = std::move(s);
      faults_.back()->has_channels = true;
    }
    for (const std::unique_ptr<Fault>& f : faults_) {
      resolve_fault(*f);
      if (f->hook != nullptr && !f->hook->has_room()) {
        throw std::runtime_error(fmt::format("fault \"{}\": more than {} faults on one message",
                                             f->settings.name, detail::MessageFaults::kMaxFaults));
      }
      attach(*f);
    }
    published_.store(faults_.size(), std::memory_order_release);
  }

  void add_tasks(rt::TickPlan& plan, bool always) {
    if (faults_.empty() && !always) return;
    plan.add(rt::Slot::fault_in, "fault_in", in_);
    plan.add(rt::Slot::fault_out, "fault_out", out_);
  }

  void set_event_sink(io::record::TelemetryRecorder* events) noexcept { events_ = events; }
  [[nodiscard]] bool empty() const noexcept { return faults_.empty(); }

  /// Not the RT thread; callers serialise: a fault ready to inject.
  std::unique_ptr<Fault> prepare(config::FaultSettings settings) {
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
    resolve_fault(*f);
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
           .frames = std::holds_alternative<config::MessageFaultSettings>(f.settings.target)});
    }
    return out;
  }

 private:
  static std::size_t hook_key(std::size_t bus, bool tx, std::size_t index) {
    return (bus << 24U) | (index << 1U) | (tx ? 1U : 0U);
  }

  void make_hook(std::size_t bus, bool tx, std::size_t index) {
    const std::size_t key = hook_key(bus, tx, index);
    hooks_[key] = std::make_unique<detail::MessageFaults>(rig_.buses()[bus].get(), tx, index,
                                                          kHeldFrames, seed_ ^ key);
  }

  std::size_t bus_index(const std::string& bus, const config::FaultSettings& s) const {
    for (std::size_t i = 0; i < rig_.buses().size(); ++i) {
      if (rig_.buses()[i]->name() == bus) return i;
    }
    throw std::runtime_error(fmt::format("fault \"{}\": the rig has no CAN bus {}", s.name, bus));
  }

  /// Setup (or a command's preparation): the fault's ids, ticks and hook.
  void resolve_fault(Fault& f) {
    const config::FaultSettings& s = f.settings;
    f.what = describe(s);
    const std::string stem = "fault." + config::fault_channel_stem(s.name);
    if (f.has_channels) {
      f.active_channel = table_.resolve(stem + ".active");
      f.count_channel = table_.resolve(stem + ".count");
    }
    f.rng.seed(seed_ ^ fnv1a(s.name));
    if (const auto* at = std::get_if<config::FaultStartAt>(&s.start)) {
      f.start = Fault::Start::at;
      f.start_tick = ceil_ticks(at->at_s, period_);
    } else if (const auto* c = std::get_if<config::FaultCondition>(&s.start)) {
      f.start = Fault::Start::condition;
      f.start_condition = resolve(*c, table_, period_);
    } else {
      f.start = Fault::Start::after;
      const std::string& name = std::get<config::FaultAfter>(s.start).fault;
      for (std::size_t i = 0; i < faults_.size(); ++i) {
        if (faults_[i]->settings.name == name) f.after = i;
      }
    }
    if (const auto* d = std::get_if<config::FaultDuration>(&s.stop)) {
      f.stop = Fault::Stop::duration;
      f.duration = std::max<std::int64_t>(1, round_ticks(d->s, period_));
    } else if (const auto* n = std::get_if<config::FaultCount>(&s.stop)) {
      f.stop = Fault::Stop::count;
      f.stop_count = n->n;
    } else if (const auto* c = std::get_if<config::FaultCondition>(&s.stop)) {
      f.stop = Fault::Stop::condition;
      f.stop_condition = resolve(*c, table_, period_);
    }
    if (s.pulse) {
      f.pulse_on = std::max<std::int64_t>(1, round_ticks(s.pulse->first, period_));
      f.pulse_off = std::max<std::int64_t>(1, round_ticks(s.pulse->second, period_));
    }
    if (const auto* c = std::get_if<config::ChannelFaultSettings>(&s.target)) {
      f.target = table_.resolve(c->channel);
      f.input = table_.spec(f.target).direction == rt::Direction::input;
      if (f.has_channels) f.original_channel = table_.resolve(stem + ".original");
      if (c->op == config::ChannelOp::delay) {
        f.delay_ring.assign(static_cast<std::size_t>(round_ticks(c->value, period_)) + 1, 0.0);
      }
      return;
    }
    if (const auto* b = std::get_if<config::BusFaultSettings>(&s.target)) {
      f.bus = bus_index(b->bus, s);
      return;
    }
    const auto& m = std::get<config::MessageFaultSettings>(s.target);
    const std::size_t b = bus_index(m.bus, s);
    const io::can::CanBusSpec& spec = rig_.settings().can[b];
    std::size_t index = 0;
    bool found = false;
    const std::size_t n = m.transmitted ? spec.tx.size() : spec.rx.size();
    for (; index < n && !found; ++index) {
      found = (m.transmitted ? spec.tx[index].message : spec.rx[index].message) == m.message;
    }
    if (!found) {
      throw std::runtime_error(
          fmt::format("fault \"{}\": bus {} has no message {}", s.name, m.bus, m.message));
    }
    --index;
    const io::can::dbc::Message* message = spec.database.find_message(m.message);
    std::int64_t cycle = 1;
    if (message != nullptr && message->cycle_time_ms && *message->cycle_time_ms > 0) {
      cycle = std::max<std::int64_t>(1, round_ticks(*message->cycle_time_ms * 1e-3, period_));
    }
    if (m.transmitted && spec.tx[index].cycle_s) {
      cycle = std::max<std::int64_t>(1, round_ticks(*spec.tx[index].cycle_s, period_));
    }
    f.cycle_ticks = m.op == config::MessageOp::cycle && m.cycle_ms > 0
                        ? std::max<std::int64_t>(1, round_ticks(m.cycle_ms * 1e-3, period_))
                        : 0;
    f.delay_ticks = round_ticks(m.delay_ms * 1e-3, period_);
    if (m.op == config::MessageOp::signal && message != nullptr) {
      for (std::size_t i = 0; i < message->signals.size(); ++i) {
        if (message->signals[i].name == m.signal) f.signal = i;
      }
    }
    f.bus = b;
    f.hook = hooks_.at(hook_key(b, m.transmitted, index)).get();
    if (f.delay_ticks / cycle + 2 > static_cast<std::int64_t>(f.hook->held_capacity())) {
      throw std::invalid_argument(fmt::format(
          "fault \"{}\": a delay of {} ms holds more frames of {} than the {} a message can",
          s.name, m.delay_ms, m.message, f.hook->held_capacity()));
    }
  }

  /// Setup, or RT for a command's fault: where the fault acts (lists sized at setup).
  void attach(Fault& f) noexcept {
    if (std::holds_alternative<config::ChannelFaultSettings>(f.settings.target)) {
      (f.input ? inputs_ : outputs_).push_back(&f);
    } else if (std::holds_alternative<config::BusFaultSettings>(f.settings.target)) {
      rig_.buses()[f.bus]->set_silence(&silent_[f.bus]);
    } else {
      f.hook->install();
      (void)f.hook->add(f);
    }
  }

  /// RT: which faults are on at `tick`.
  void decide(std::int64_t tick) noexcept {
    for (const std::unique_ptr<Fault>& p : faults_) {
      Fault& f = *p;
      if (!f.started) {
        bool go = false;
        switch (f.start) {
          case Fault::Start::at:
            go = tick >= f.start_tick;
            break;
          case Fault::Start::condition:
            go = f.start_condition.holds(tick, table_.get(f.start_condition.channel));
            break;
          case Fault::Start::after:
            go = faults_[f.after]->stopped;
            break;
        }
        if (go) {
          f.started = true;
          f.onset = tick;
        }
      }
      if (f.started && !f.stopped) {
        bool end = f.force_stop;
        switch (f.stop) {
          case Fault::Stop::never:
            break;
          case Fault::Stop::duration:
            end = end || tick - f.onset >= f.duration;
            break;
          case Fault::Stop::count:
            end = end || f.count >= f.stop_count;
            break;
          case Fault::Stop::condition:
            end = end || (tick > f.onset &&
                          f.stop_condition.holds(tick, table_.get(f.stop_condition.channel)));
            break;
        }
        if (end) f.stopped = true;
      }
      if (f.force_stop && !f.started) f.stopped = true;  // cleared before it began
      f.active = f.started && !f.stopped &&
                 (f.pulse_on == 0 || (tick - f.onset) % (f.pulse_on + f.pulse_off) < f.pulse_on);
      if (f.active) {
        if (f.first_active < 0) f.first_active = tick;
        f.last_active = tick;
        if (!std::holds_alternative<config::MessageFaultSettings>(f.settings.target)) ++f.count;
      }
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
      if (f->active && std::holds_alternative<config::BusFaultSettings>(f->settings.target)) {
        silent_[f->bus] = true;
      }
    }
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

  config::RigRuntime& rig_;
  rt::ChannelTable& table_;
  rt::Nanoseconds period_;
  std::uint64_t seed_;
  std::vector<std::unique_ptr<Fault>> faults_;  // capacity reserved: no allocation on the tick
  std::atomic<std::size_t> published_{0};       ///< faults_ other threads may read
  std::vector<Fault*> inputs_, outputs_;
  std::map<std::size_t, std::unique_ptr<detail::MessageFaults>> hooks_;
  std::unique_ptr<bool[]> silent_;
  std::size_t silent_count_ = 0;
  io::record::TelemetryRecorder* events_ = nullptr;
  std::array<char, 150> event_text_{};
  std::mutex names_mutex_;
  std::vector<std::string> names_;  ///< every fault's name: one added later must differ
  PhaseTask in_, out_;
};

std::vector<rt::ChannelSpec> FaultEngine::channels(
    const std::vector<config::FaultSettings>& faults) {
  std::vector<rt::ChannelSpec> out;
  for (const config::FaultSettings& f : faults) {
    const std::string stem = "fault." + config::fault_channel_stem(f.name);
    out.push_back(
        {.name = stem + ".active", .unit = "-", .description = "1 while the fault is on"});
    out.push_back({.name = stem + ".count",
                   .unit = "-",
                   .description = "frames it affected (message faults) or ticks it was on"});
    if (std::holds_alternative<config::ChannelFaultSettings>(f.target)) {
      out.push_back({.name = stem + ".original",
                     .unit = "-",
                     .description = "the channel's value without the fault (the truth)"});
    }
  }
  return out;
}

FaultEngine::FaultEngine(std::vector<config::FaultSettings> faults, config::RigRuntime& rig,
                         std::uint64_t seed)
    : impl_(std::make_unique<Impl>(std::move(faults), rig, seed)) {}
FaultEngine::~FaultEngine() = default;
PreparedFault::~PreparedFault() = default;
void FaultEngine::add_tasks(rt::TickPlan& plan, bool always) { impl_->add_tasks(plan, always); }
std::unique_ptr<PreparedFault> FaultEngine::prepare(config::FaultSettings fault) {
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

}  // namespace hil::faults
