#include "config/scenario/scenario_gates.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <tuple>
#include <vector>

namespace hil::config {

namespace {

/// A dtc gate (`at`: "gates[i].dtc"): its code one of the rig's DTCs, exactly one of status
/// and mask, the window within the run.
DtcGate convert_dtc(const Scenario::Dtc& d, const std::string& at, double duration,
                    const config::RigSpec& rig, const Checker& check) {
  DtcGate out{.from_s = d.from_s(), .to_s = duration, .code = d.code(), .stays = d.stays()};
  const std::span<const config::DtcSpec> dtcs =
      rig.diagnostics ? rig.diagnostics->dtcs : std::span<const config::DtcSpec>{};
  std::vector<std::string> known;
  for (const config::DtcSpec& x : dtcs) known.push_back(fmt::format("{:06X} {}", x.code, x.name));
  if (check.present(at + ".code", d.has_code(), "the DTC's number (0xC12300)")) {
    if (d.code() > 0xFFFFFF) {
      check.fail(at + ".code", fmt::format("0x{:X} is out of range; expected 3 bytes (at most "
                                           "0xFFFFFF)",
                                           d.code()));
    } else if (!rig.diagnostics) {
      check.fail(at + ".code", fmt::format("DTC {:06X}: the rig has no diagnostics block to "
                                           "read it from",
                                           d.code()));
    } else if (std::ranges::none_of(dtcs, [&](const auto& x) { return x.code == d.code(); })) {
      check.fail(at + ".code",
                 fmt::format("DTC {:06X} is not in the rig's diagnostics block (its DTCs: {})",
                             d.code(), fmt::join(known, ", ")));
    }
  }
  using enum DtcGate::Status;
  constexpr DtcGate kByStatus[] = {{},
                                   {.status = failed, .bits = 0x01},
                                   {.status = pending, .bits = 0x04},
                                   {.status = confirmed, .bits = 0x08},
                                   {.status = clear, .bits = 0x0D, .clear = true}};
  if (d.has_status() == d.has_mask()) {
    check.fail(at, "expected exactly one of status (FAILED, PENDING, CONFIRMED, CLEAR) and mask");
  } else if (d.has_mask()) {
    out.status = mask;
    out.bits = static_cast<std::uint8_t>(d.mask());
    check.in_range(at + ".mask", d.mask(), 1, 0xFF, "1..0xFF (statusOfDTC bits)");
  } else if (d.status() == Scenario::Dtc::STATUS_UNSPECIFIED ||
             !Scenario::Dtc::Status_IsValid(d.status())) {
    check.fail(at + ".status", fmt::format("{} is not a status; expected FAILED, PENDING, "
                                           "CONFIRMED or CLEAR",
                                           static_cast<int>(d.status())));
  } else {
    const DtcGate& as = kByStatus[static_cast<std::size_t>(d.status())];
    std::tie(out.status, out.bits, out.clear) = std::tuple(as.status, as.bits, as.clear);
  }
  check.time(at + ".from_s", out.from_s, duration);
  if (d.has_within_s() && check.positive(at + ".within_s", d.within_s())) {
    out.to_s = out.from_s + d.within_s();
    if (out.to_s > duration) {
      check.fail(at + ".within_s", fmt::format("from_s + within_s = {} is after the end ({} s); "
                                               "the window must end by then",
                                               out.to_s, duration));
    }
  }
  return out;
}

}  // namespace

GateCheck convert_gate(const Scenario::Gate& g, const std::string& at, double duration,
                       const config::RigSpec& rig, const Checker& check) {
  switch (g.check_case()) {
    case Scenario::Gate::kLane: {
      const Scenario::Lane& l = g.lane();
      if (!(l.x_min() < l.x_max() && l.y_min() < l.y_max())) {
        check.fail(at + ".lane", fmt::format("x {}..{}, y {}..{}: expected x_min < x_max and "
                                             "y_min < y_max",
                                             l.x_min(), l.x_max(), l.y_min(), l.y_max()));
      }
      return LaneGate{
          .x_min = l.x_min(), .x_max = l.x_max(), .y_min = l.y_min(), .y_max = l.y_max()};
    }
    case Scenario::Gate::kSpeedReached: {
      const Scenario::SpeedReached& s = g.speed_reached();
      SpeedReachedGate out{.speed = s.speed(),
                           .tolerance = s.has_tolerance()
                                            ? s.tolerance()
                                            : std::max(0.02, 0.02 * std::abs(s.speed())),
                           .by_s = s.has_by_s() ? s.by_s() : duration,
                           .hold_s = s.has_hold_s() ? s.hold_s() : 1.0};
      check.present(at + ".speed_reached.speed", s.has_speed(), "the speed [m/s]");
      check.finite(at + ".speed_reached.speed", out.speed);
      check.positive(at + ".speed_reached.tolerance", out.tolerance);
      check.non_negative(at + ".speed_reached.hold_s", out.hold_s);
      if (check.time(at + ".speed_reached.by_s", out.by_s, duration) &&
          out.by_s + out.hold_s > duration) {
        check.fail(at + ".speed_reached.hold_s",
                   fmt::format("by_s + hold_s = {} is after the end ({} s); the gate could "
                               "never pass",
                               out.by_s + out.hold_s, duration));
      }
      return out;
    }
    case Scenario::Gate::kNoRollback:
      check.present(at + ".no_rollback.max_m", g.no_rollback().has_max_m(), "a distance [m]");
      check.non_negative(at + ".no_rollback.max_m", g.no_rollback().max_m());
      return NoRollbackGate{.max_m = g.no_rollback().max_m()};
    case Scenario::Gate::kMaxDeviation: {
      const Scenario::MaxDeviation& m = g.max_deviation();
      MaxDeviationGate out{
          .max_m = m.max_m(), .from_s = m.from_s(), .to_s = m.has_to_s() ? m.to_s() : duration};
      check.positive(at + ".max_deviation.max_m", out.max_m);
      check.time(at + ".max_deviation.from_s", out.from_s, duration);
      check.in_range(at + ".max_deviation.to_s", out.to_s, out.from_s, duration,
                     fmt::format("from_s..duration ({}..{} s)", out.from_s, duration));
      return out;
    }
    case Scenario::Gate::kDistanceReached: {
      const Scenario::DistanceReached& d = g.distance_reached();
      check.present(at + ".distance_reached.distance", d.has_distance(), "a distance [m]");
      check.finite(at + ".distance_reached.distance", d.distance());
      const double by = d.has_by_s() ? d.by_s() : duration;
      check.time(at + ".distance_reached.by_s", by, duration);
      return DistanceReachedGate{.distance = d.distance(), .by_s = by};
    }
    case Scenario::Gate::kStopped: {
      const Scenario::Stopped& s = g.stopped();
      check.present(at + ".stopped.by_s", s.has_by_s(), "the time it is at rest by [s]");
      check.time(at + ".stopped.by_s", s.by_s(), duration);
      const double max_speed = s.has_max_speed() ? s.max_speed() : 0.05;
      check.positive(at + ".stopped.max_speed", max_speed);
      return StoppedGate{.by_s = s.by_s(), .max_speed = max_speed};
    }
    case Scenario::Gate::kDtc:
      return convert_dtc(g.dtc(), at + ".dtc", duration, rig, check);
    case Scenario::Gate::kNotBoggedDown: {
      const Scenario::NotBoggedDown& b = g.not_bogged_down();
      const std::string f = at + ".not_bogged_down";
      NotBoggedDownGate out;
      if (b.has_min_speed()) out.min_speed = b.min_speed();
      if (b.has_min_slip()) out.min_slip = b.min_slip();
      if (b.has_hold_s()) out.hold_s = b.hold_s();
      out.from_s = b.from_s();
      if (b.has_max_sinkage()) out.max_sinkage = b.max_sinkage();
      check.positive(f + ".min_speed", out.min_speed);
      check.in_range(f + ".min_slip", out.min_slip, 0.0, 1.0, "0..1");
      check.positive(f + ".hold_s", out.hold_s);
      check.time(f + ".from_s", out.from_s, duration);
      if (b.has_max_sinkage()) check.positive(f + ".max_sinkage", out.max_sinkage);
      return out;
    }
    case Scenario::Gate::CHECK_NOT_SET:
      break;
  }
  check.fail(at,
             "no check; expected lane, speed_reached, no_rollback, max_deviation, "
             "distance_reached, stopped, dtc or not_bogged_down");
  return NoRollbackGate{};
}

const char* kind_name(const GateCheck& c) {
  static constexpr const char* kNames[] = {"lane",          "speed_reached",    "no_rollback",
                                           "max_deviation", "distance_reached", "stopped",
                                           "dtc",           "not_bogged_down"};
  return kNames[c.index()];
}

}  // namespace hil::config
