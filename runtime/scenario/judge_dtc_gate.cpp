// The DTC gate (config/scenario/scenario_gates.hpp DtcGate, docs/diagnostics.md "Scenario
// gates on DTCs"): a statusOfDTC read by the rig's UDS tester, or the stand-alone ECU's own,
// showing (or, with `stays`, keeping) what the gate asks within its window. Part of
// ScenarioJudge (scenario_judge.hpp): observe on the RT thread without allocating, judge after.

#include <fmt/format.h>

#include <limits>

#include "io/can/uds/uds_codec.hpp"
#include "runtime/scenario/scenario_judge.hpp"

namespace hil::runtime {

namespace {

/// Whether a statusOfDTC shows what the gate asks; an unknown status (< 0, NaN) never does.
bool shows(const config::DtcGate& d, double status) noexcept {
  if (!(status >= 0.0 && status <= 255.0)) return false;
  const auto s = static_cast<std::uint8_t>(status);
  return d.clear ? (s & d.bits) == 0 : (s & d.bits) == d.bits;
}

/// "0x09 (testFailed, confirmedDTC)", or that it is unknown.
std::string status_text(double status) {
  if (!(status >= 0.0 && status <= 255.0)) return "unknown (not read yet)";
  const auto s = static_cast<std::uint8_t>(status);
  return s == 0 ? "0x00" : fmt::format("0x{:02X} ({})", s, io::can::uds::status_text(s));
}

/// "DTC C12300 CONFIRMED", "DTC C12300 mask 0x09".
std::string wanted_text(const config::DtcGate& d) {
  using enum config::DtcGate::Status;
  switch (d.status) {
    case failed:
      return fmt::format("DTC {:06X} FAILED", d.code);
    case pending:
      return fmt::format("DTC {:06X} PENDING", d.code);
    case confirmed:
      return fmt::format("DTC {:06X} CONFIRMED", d.code);
    case clear:
      return fmt::format("DTC {:06X} CLEAR", d.code);
    case mask:
      break;
  }
  return fmt::format("DTC {:06X} mask 0x{:02X}", d.code, d.bits);
}

}  // namespace

void ScenarioJudge::observe_dtc(std::size_t i, GateState& g, const config::DtcGate& d,
                                const Observation& o) noexcept {
  using enum LiveMark::State;
  const double t = o.time;
  if (t >= d.from_s && t <= d.to_s && g.dtc_at < 0.0) {
    const double status = g.dtc < o.dtc_status.size() ? o.dtc_status[g.dtc]
                                                      : std::numeric_limits<double>::quiet_NaN();
    ++g.samples;
    g.dtc_status = status;
    g.figure_at = t;
    if (shows(d, status) != d.stays) {  // showed it (the pass), or stopped showing it
      g.dtc_at = t;
      mark(g, i, d.stays ? failed : passed, t);
    }
  }
  // The window observed to its end: a stays gate held, a gate that never showed it failed
  if (t >= d.to_s) mark(g, i, d.stays && g.samples > 0 ? passed : failed, t);
}

void ScenarioJudge::judge_dtc(const config::DtcGate& d, const GateState& g, GateResult& r) const {
  const double until = last_time_;
  const std::string wanted = wanted_text(d);
  const std::string window = fmt::format("from {:.1f} s to {:.1f} s", d.from_s, d.to_s);
  r.unit.assign(1, 's');  // not = "s": GCC 12's -Wstringop-overflow misfires on it here
  r.passed = d.stays ? g.dtc_at < 0.0 && g.samples > 0 : g.dtc_at >= 0.0;
  if (g.dtc_at >= 0.0) {  // decided during the window
    r.value = g.dtc_at;
    r.detail = d.stays ? fmt::format("{}: not at {:.2f} s, status {}; needed {}", wanted, g.dtc_at,
                                     status_text(g.dtc_status), window)
                       : fmt::format("{} at {:.2f} s, status {} (wanted {})", wanted, g.dtc_at,
                                     status_text(g.dtc_status), window);
  } else if (until < d.to_s - kTimeSlack) {
    r.passed = false;
    r.reached = false;
    r.detail =
        fmt::format("not decided: the run ended at {:.2f} s, before {:.1f} s", until, d.to_s);
  } else if (g.samples == 0) {
    r.detail = fmt::format("{}: not observed {}", wanted, window);
  } else if (d.stays) {
    r.detail = fmt::format("{} at every observation {}", wanted, window);
  } else {
    r.detail = fmt::format("{}: never {}; status at {:.2f} s {}", wanted, window, g.figure_at,
                           status_text(g.dtc_status));
  }
}

}  // namespace hil::runtime
