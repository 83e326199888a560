#include "tools/session/ecu/ecu_session.hpp"

#include <fmt/format.h>

#include <chrono>

#include "tools/session/run_builder.hpp"

namespace hil::session {

namespace {

/// "[  12.34 s] speed ref …": one progress line.
std::string progress_line(const ecu::VirtualEcu& ecu) {
  const ecu::EcuProgress p = ecu.progress();
  std::uint64_t timeouts = 0;
  std::uint64_t errors = 0;
  for (std::size_t i = 0; i < ecu.bus().rx_count(); ++i) {
    timeouts += ecu.bus().rx_counters(i).timeouts.load(std::memory_order_relaxed);
    errors += ecu.bus().rx_counters(i).errors.load(std::memory_order_relaxed);
  }
  return fmt::format(
      "[{:7.2f} s] {}speed ref {:5.2f} m/s, measured {:5.2f} m/s, cross-track "
      "{:+.3f} m, {:.1f} m along | rx errors {}, timeouts {}",
      p.time, p.holding ? "HOLDING (rig not heard) " : "", p.speed_ref, p.speed_measured,
      p.cross_track, p.progress, errors, timeouts);
}

/// With a scenario, the ECU stops once the rig it has heard is silent this long: its scenario
/// clock holds while inputs are missing, so a rig that ended first would leave it waiting.
constexpr double kRigGoneAfterS = 3.0;

Recipe ecu_recipe(const EcuSpec& o) {
  rt::ExecutiveSpec executive{.period = o.period};
  executive.overrun.kind = rt::OverrunKind::skip;
  return {.rig = {.rig = o.rig, .scenario = o.scenario.empty() ? "none" : o.scenario},
          .sources = LiveSources{.can_uri = o.can},
          .peer = Peer::ecu_alone,
          .clock = {.peer_priority = o.priority, .executive = executive},
          .straight_at = o.scenario.empty() ? std::optional(o.speed) : std::nullopt,
          .quiet = o.quiet};
}

}  // namespace

std::optional<EcuReport> run_ecu(const EcuSpec& o) {
  const std::unique_ptr<Run> run = RunBuilder(ecu_recipe(o)).build();
  if (!run) return std::nullopt;
  const config::ScenarioSpec& scenario = *run->scenario;
  const ecu::VirtualEcu& ecu = *run->ecu;
  EcuReport report{.rig = o.rig, .scenario = scenario.name, .uri = o.can};
  if (!o.quiet) {
    fmt::print(stderr, "hilsim ecu: {} on {} — {} ({:.0f} s); Ctrl-C stops\n", o.rig, o.can,
               scenario.description, scenario.duration_s);
  }
  const std::optional<double> run_length =
      o.duration ? std::optional(static_cast<double>(*o.duration) / 1e9) : std::nullopt;
  const RunOutcome outcome = run->run(
      -1, {.progress = [&](const rt::TimingSnapshot&,
                           std::chrono::steady_clock::duration) { return progress_line(ecu); },
           .stop_when = [&] {  // the scenario's end, --duration since the rig was first heard,
                               // or a rig gone silent
             const ecu::EcuProgress p = ecu.progress();
             return p.time >= scenario.duration_s || (run_length && p.elapsed >= *run_length) ||
                    (!o.scenario.empty() && p.silent_for >= kRigGoneAfterS);
           }});
  report.status = outcome.status;
  report.interrupted = outcome.interrupted;
  collect(ecu, report);
  const bool finished = report.scenario_time_s >= scenario.duration_s - 0.1 && !report.interrupted;
  report.rig_gone = !finished && !report.interrupted && !o.scenario.empty() &&
                    ecu.progress().silent_for >= kRigGoneAfterS;
  if (finished && !scenario.gates.empty()) report.verdict = ecu.verdict();
  return report;
}

}  // namespace hil::session
