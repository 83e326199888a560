#include "runtime/scenario/scenario_judge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <variant>

namespace hil::runtime {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

ScenarioJudge::ScenarioJudge(const config::ScenarioSpec& scenario)
    : gates_(scenario.gates),
      footprint_(scenario.footprint),
      frame_(scenario.start),
      path_(scenario.drive.path),
      state_(scenario.gates.size()),
      live_(std::make_unique<LiveSlot[]>(scenario.gates.size())) {
  for (std::size_t i = 0; i < gates_.size(); ++i) {
    const auto* d = std::get_if<config::DtcGate>(&gates_[i].check);
    if (d == nullptr) continue;
    const auto at = std::ranges::find(dtc_codes_, d->code);
    state_[i].dtc = static_cast<std::size_t>(at - dtc_codes_.begin());
    if (at == dtc_codes_.end()) dtc_codes_.push_back(d->code);
  }
}

LiveMark ScenarioJudge::live(std::size_t i) const noexcept {
  const LiveMark::State state = live_[i].state.load(std::memory_order_acquire);
  return {.state = state, .time = live_[i].time.load(std::memory_order_relaxed)};
}

void ScenarioJudge::mark(GateState& g, std::size_t i, LiveMark::State state, double time) noexcept {
  if (g.marked) return;
  g.marked = true;
  live_[i].time.store(time, std::memory_order_relaxed);
  live_[i].state.store(state, std::memory_order_release);
}

void ScenarioJudge::observe(const Observation& o) noexcept {
  const CoursePose pose = frame_.to_course(o.x, o.y, o.yaw);
  last_time_ = o.time;
  // The footprint's corners, once per observation (the lane gates share them)
  const double c = std::cos(pose.heading);
  const double s = std::sin(pose.heading);
  const config::Footprint& f = footprint_;
  std::size_t k = 0;
  for (const double dx : {f.x_front, f.x_rear}) {
    for (const double dy : {f.half_width, -f.half_width}) {
      corners_[k++] = {.x = pose.x + c * dx - s * dy, .y = pose.y + s * dx + c * dy};
    }
  }
  for (std::size_t i = 0; i < gates_.size(); ++i) observe_gate(i, state_[i], o, pose);
}

void ScenarioJudge::observe_gate(std::size_t i, GateState& g, const Observation& o,
                                 const CoursePose& pose) noexcept {
  const config::GateSpec& gate = gates_[i];
  const double t = o.time;
  using enum LiveMark::State;
  std::visit(Overloaded{
                 [&](const config::LaneGate& lane) {
                   g.rear_x = corners_[0].x;
                   for (const config::CoursePoint& c : corners_) {
                     g.rear_x = std::min(g.rear_x, c.x);
                     if (c.x < lane.x_min || c.x > lane.x_max) continue;
                     const double margin = std::min(c.y - lane.y_min, lane.y_max - c.y);
                     ++g.samples;
                     if (margin < g.worst_margin) {
                       g.worst_margin = margin;
                       g.worst_x = c.x;
                     }
                   }
                   if (g.worst_margin < 0.0) mark(g, i, failed, t);  // a corner left the lane
                   // Decided once the whole footprint is past the section, not before
                   g.left = g.left || g.rear_x > lane.x_max;
                   if (g.left && g.samples > 0) mark(g, i, passed, t);
                 },
                 [&](const config::SpeedReachedGate& s) {
                   if (g.passed_at >= 0.0) return;
                   const double error = std::abs(o.speed - s.speed);
                   const bool in_band = error <= s.tolerance;
                   if (t <= s.by_s + s.hold_s && error < g.best_error) {
                     g.best_error = error;
                     g.best_error_at = t;
                   }
                   if (!in_band) {
                     g.in_band_since = -1.0;
                     g.band_since = -1.0;
                   } else {
                     if (g.in_band_since < 0.0 && t <= s.by_s) g.in_band_since = t;
                     if (g.band_since < 0.0) g.band_since = t;
                     if (t - g.band_since > g.longest_hold) {  // the longest stay, for the message
                       g.longest_hold = t - g.band_since;
                       g.longest_hold_from = g.band_since;
                     }
                   }
                   if (g.in_band_since >= 0.0 && t - g.in_band_since >= s.hold_s) {
                     g.passed_at = t;
                     mark(g, i, passed, t);
                   }
                 },
                 [&](const config::NoRollbackGate& r) {
                   g.peak = std::max(g.peak, pose.x);
                   g.figure = std::max(g.figure, g.peak - pose.x);
                   ++g.samples;
                   if (g.figure > r.max_m) mark(g, i, failed, t);
                 },
                 [&](const config::MaxDeviationGate& m) {
                   if (t < m.from_s || t > m.to_s) return;
                   const PathSample at = located_ ? path_.project(pose.x, pose.y, hint_)
                                                  : path_.project_global(pose.x, pose.y, hint_);
                   located_ = true;
                   ++g.samples;
                   if (std::abs(at.cross_track) > g.figure) {
                     g.figure = std::abs(at.cross_track);
                     g.figure_at = t;
                   }
                   if (g.figure > m.max_m) mark(g, i, failed, t);
                 },
                 [&](const config::DistanceReachedGate& d) {
                   if (t > d.by_s) return;
                   g.peak = std::max(g.peak, pose.x);
                   if (g.passed_at < 0.0 && pose.x >= d.distance) {
                     g.passed_at = t;
                     mark(g, i, passed, t);
                   }
                 },
                 [&](const config::StoppedGate& s) {
                   if (t < s.by_s) return;
                   ++g.samples;
                   g.figure = std::max(g.figure, std::abs(o.speed));
                 },
                 [&](const config::DtcGate& d) { observe_dtc(i, g, d, o); },
                 [&](const config::NotBoggedDownGate& b) { observe_bog(i, g, b, o); },
             },
             gate.check);
}

void ScenarioJudge::observe_bog(std::size_t i, GateState& g, const config::NotBoggedDownGate& b,
                                const Observation& o) noexcept {
  const double t = o.time;
  if (t < b.from_s || g.bogged_at >= 0.0) return;
  ++g.samples;
  if (o.sinkage > g.figure) {  // NaN (unknown) never is
    g.figure = o.sinkage;
    g.figure_at = t;
    g.slip_at_deepest = o.slip;
  }
  const auto bogged = [&](bool too_deep) {
    g.bogged_at = t;
    g.bog_sinkage = o.sinkage;
    g.bog_slip = o.slip;
    g.bog_speed = o.speed;
    g.too_deep = too_deep;
    mark(g, i, LiveMark::State::failed, t);
  };
  if (o.sinkage > b.max_sinkage) {
    bogged(true);
    return;
  }
  // Stuck: slow while the wheels spin (a vehicle held at rest does not spin its wheels)
  const bool stuck = std::abs(o.speed) < b.min_speed && o.slip > b.min_slip;
  if (!stuck) {
    g.stuck_since = -1.0;
    return;
  }
  if (g.stuck_since < 0.0) g.stuck_since = t;
  if (t - g.stuck_since >= b.hold_s) bogged(false);
}

void ScenarioJudge::judge_bog(const config::NotBoggedDownGate& b, const GateState& g,
                              GateResult& r) {
  r.unit = "m";
  r.reached = g.samples > 0 || g.bogged_at >= 0.0;
  if (g.samples > 0) r.value = g.figure;
  if (g.bogged_at >= 0.0 && g.too_deep) {
    r.detail = fmt::format(
        "bogged down at {:.2f} s: a wheel sank {:.3f} m (allowed {:.3f} m), the wheels' mean "
        "slip {:.2f}, speed {:.2f} m/s",
        g.bogged_at, g.bog_sinkage, b.max_sinkage, g.bog_slip, g.bog_speed);
  } else if (g.bogged_at >= 0.0) {
    r.detail = fmt::format(
        "bogged down at {:.2f} s: below {:.2f} m/s for {:.1f} s with the wheels spinning (mean "
        "slip {:.2f} > {:.2f}); sinkage {:.3f} m, speed {:.2f} m/s",
        g.bogged_at, b.min_speed, b.hold_s, g.bog_slip, b.min_slip, g.bog_sinkage, g.bog_speed);
  } else if (g.samples == 0) {
    r.detail = fmt::format("not observed: nothing from {:.1f} s on", b.from_s);
  } else {
    r.passed = true;
    r.detail = fmt::format(
        "never bogged down: deepest sinkage {:.3f} m at {:.2f} s (mean slip "
        "then {:.2f})",
        std::max(g.figure, 0.0), g.figure_at, g.slip_at_deepest);
  }
}

std::string ScenarioJudge::failed_hold(const config::SpeedReachedGate& s, const GateState& g) {
  const std::string wanted = fmt::format(
      "needed within {:.3f} m/s of {:.3f} m/s for {:.1f} s "
      "from {:.1f} s at the latest",
      s.tolerance, s.speed, s.hold_s, s.by_s);
  if (g.longest_hold < 0.0) {  // never in the band
    return fmt::format("{}; never in the band: closest {:.3f} m/s off, at {:.2f} s", wanted,
                       g.best_error, g.best_error_at);
  }
  return fmt::format("{}; held at most {:.2f} s, from {:.2f} s{}", wanted, g.longest_hold,
                     g.longest_hold_from,
                     g.longest_hold_from > s.by_s ? fmt::format(" (after {:.1f} s)", s.by_s) : "");
}

GateResult ScenarioJudge::judge(const config::GateSpec& gate, const GateState& g) const {
  GateResult r{.name = gate.name};
  const double until = last_time_;
  std::visit(
      Overloaded{
          [&](const config::LaneGate& lane) {
            r.kind = "lane";
            if (g.samples == 0) {
              r.reached = false;
              r.detail = fmt::format("the vehicle never reached the lane (x {:.1f}..{:.1f} m)",
                                     lane.x_min, lane.x_max);
              return;
            }
            r.value = g.worst_margin;
            r.unit = "m";
            if (g.worst_margin < 0.0) {
              r.detail = fmt::format("outside the lane by {:.3f} m (at x {:.1f} m)",
                                     -g.worst_margin, g.worst_x);
            } else if (!g.left) {  // a corner may still leave the lane
              r.reached = false;
              r.detail = fmt::format(
                  "not decided: the run ended at {:.2f} s with the vehicle in the section (its "
                  "rear at x {:.2f} m, the section ends at {:.1f} m); smallest clearance so far "
                  "{:.3f} m",
                  until, g.rear_x, lane.x_max, g.worst_margin);
            } else {
              r.passed = true;
              r.detail = fmt::format("smallest clearance {:.3f} m (at x {:.1f} m)", g.worst_margin,
                                     g.worst_x);
            }
          },
          [&](const config::SpeedReachedGate& s) {
            r.kind = "speed_reached";
            r.passed = g.passed_at >= 0.0;
            r.unit = "s";
            if (r.passed) r.value = g.passed_at;
            if (r.passed) {
              r.detail = fmt::format("within {:.3f} m/s of {:.3f} m/s for {:.1f} s by {:.2f} s",
                                     s.tolerance, s.speed, s.hold_s, g.passed_at);
            } else if (until < s.by_s + s.hold_s - kTimeSlack) {
              r.reached = false;
              r.detail = fmt::format("not decided: the run ended at {:.2f} s, before {:.1f} s",
                                     until, s.by_s + s.hold_s);
            } else {
              r.detail = failed_hold(s, g);
            }
          },
          [&](const config::NoRollbackGate& n) {
            r.kind = "no_rollback";
            r.passed = g.samples > 0 && g.figure <= n.max_m;
            r.unit = "m";
            if (g.samples > 0) r.value = g.figure;
            r.reached = g.samples > 0;
            r.detail =
                fmt::format("largest rollback {:.3f} m (allowed {:.3f} m)", g.figure, n.max_m);
          },
          [&](const config::MaxDeviationGate& m) {
            r.kind = "max_deviation";
            const bool whole = until >= m.to_s - kTimeSlack;
            r.passed = g.samples > 0 && whole && g.figure <= m.max_m;
            r.unit = "m";
            if (g.samples > 0) r.value = g.figure;
            r.reached = whole;
            r.detail = fmt::format("largest deviation {:.3f} m at {:.2f} s (allowed {:.3f} m){}",
                                   g.figure, g.figure_at, m.max_m,
                                   whole ? "" : fmt::format("; observed only to {:.2f} s", until));
          },
          [&](const config::DistanceReachedGate& d) {
            r.kind = "distance_reached";
            r.passed = g.passed_at >= 0.0;
            r.unit = "m";
            r.value = std::max(g.peak, 0.0);
            r.reached = r.passed || until >= d.by_s - kTimeSlack;
            r.detail = r.passed
                           ? fmt::format("reached {:.1f} m at {:.2f} s", d.distance, g.passed_at)
                           : fmt::format("got to {:.2f} m of {:.1f} m by {:.1f} s",
                                         std::max(g.peak, 0.0), d.distance, d.by_s);
          },
          [&](const config::StoppedGate& s) {
            r.kind = "stopped";
            r.passed = g.samples > 0 && g.figure <= s.max_speed;
            r.unit = "m/s";
            if (g.samples > 0) r.value = g.figure;
            r.reached = g.samples > 0;
            r.detail = g.samples == 0
                           ? fmt::format("not observed: the run ended at {:.2f} s", until)
                           : fmt::format(
                                 "largest speed from {:.1f} s: {:.3f} m/s (allowed "
                                 "{:.3f} m/s)",
                                 s.by_s, g.figure, s.max_speed);
          },
          [&](const config::DtcGate& d) {
            r.kind = "dtc";
            judge_dtc(d, g, r);
          },
          [&](const config::NotBoggedDownGate& b) {
            r.kind = "not_bogged_down";
            judge_bog(b, g, r);
          },
      },
      gate.check);
  return r;
}

ScenarioVerdict ScenarioJudge::verdict() const {
  ScenarioVerdict v{.passed = true, .observed_until = last_time_};
  for (std::size_t i = 0; i < gates_.size(); ++i) {
    v.gates.push_back(judge(gates_[i], state_[i]));
    v.passed = v.passed && v.gates.back().passed;
  }
  return v;
}

}  // namespace hil::runtime
