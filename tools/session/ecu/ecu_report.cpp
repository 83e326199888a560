#include "tools/session/ecu/ecu_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace hil::session {

void collect(const ecu::VirtualEcu& ecu, EcuReport& report) {
  const io::can::CanBus& bus = ecu.bus();
  const ecu::ArrivalMonitor& arrivals = ecu.arrivals();
  report.cycles = ecu.cycles();
  report.holding_cycles = ecu.holding_cycles();
  report.scenario_time_s = ecu.progress().time;
  report.transport = arrivals.inner().counters().snapshot();
  // The bus's rx messages are the mirror of the rig's tx, in the same order as the watched
  for (std::size_t i = 0; i < bus.rx_count() && i < arrivals.watched().size(); ++i) {
    const io::can::MessageCounters& c = bus.rx_counters(i);
    const rt::HistogramSummary deviation = arrivals.deviation(i);
    report.received.push_back(
        {.name = arrivals.watched()[i].name,
         .cycle_s = arrivals.watched()[i].cycle_s,
         .frames = c.frames.load(std::memory_order_relaxed),
         .errors = c.errors.load(std::memory_order_relaxed),
         .counter_jumps = c.counter_jumps.load(std::memory_order_relaxed),
         .timeouts = c.timeouts.load(std::memory_order_relaxed),
         .crc_errors = c.crc_errors.load(std::memory_order_relaxed),
         .counter_errors = c.counter_errors.load(std::memory_order_relaxed),
         .length_errors = c.length_errors.load(std::memory_order_relaxed),
         .periods = arrivals.periods(i),
         .deviation_p99_us = deviation.count > 0 ? deviation.percentile_us(0.99) : 0.0,
         .deviation_max_us = static_cast<double>(deviation.max_ns) / 1e3});
  }
  for (std::size_t i = 0; i < bus.tx_count(); ++i) {
    const io::can::MessageCounters& c = bus.tx_counters(i);
    report.sent.push_back({.name = ecu.spec().tx[i].message,
                           .frames = c.frames.load(std::memory_order_relaxed),
                           .errors = c.errors.load(std::memory_order_relaxed),
                           .drops = c.drops.load(std::memory_order_relaxed)});
  }
}

std::string format_summary(const EcuReport& r) {
  std::string out = fmt::format("hilsim ecu: rig {}, scenario {}, {}\n", r.rig, r.scenario, r.uri);
  out += fmt::format("  scenario time {:.2f} s, {} control cycles, {} held for missing input{}\n",
                     r.scenario_time_s, r.cycles, r.holding_cycles,
                     r.interrupted ? " (stopped by a signal)"
                     : r.rig_gone  ? " (stopped: the rig fell silent before the scenario's end)"
                                   : "");
  out +=
      "  from the rig:            frames  errors (crc/ctr/len)  jumps  timeouts  period "
      "mean/min/max [ms]  |dev| p99 [us]\n";
  for (const ReceivedMessageReport& m : r.received) {
    out += fmt::format(
        "    {:<20} {:>9} {:>7} {:>12} {:>6} {:>9}   {:>6.2f} / {:>6.2f} / {:>6.2f}   "
        "{:>8.0f}\n",
        m.name, m.frames, m.errors,
        fmt::format("{}/{}/{}", m.crc_errors, m.counter_errors, m.length_errors), m.counter_jumps,
        m.timeouts, m.periods.mean_s * 1e3, m.periods.min_s * 1e3, m.periods.max_s * 1e3,
        m.deviation_p99_us);
  }
  std::uint64_t sent = 0;
  for (const SentMessageReport& m : r.sent) sent += m.frames;
  const io::can::TransportStats& t = r.transport;
  out += fmt::format(
      "  sent {} frames; transport: rx {} tx {} frames, {} drops, {} lost in "
      "sequence, {} errors\n",
      sent, t.rx_frames, t.tx_frames, t.total_drops(), t.sequence_lost, t.errors);
  out += fmt::format("  {}\n", r.status.summary());
  if (r.verdict) {
    out += fmt::format("  verdict (on what the ECU received): {}\n",
                       r.verdict->passed ? "PASSED" : "FAILED");
    for (const runtime::GateResult& g : r.verdict->gates) {
      out += fmt::format("    [{}] {}: {}\n",
                         g.passed     ? "pass"
                         : !g.reached ? "  --"
                                      : "FAIL",
                         g.name, g.detail);  // "  --": the run ended before it was decided
    }
  }
  return out;
}

nlohmann::json to_json(const EcuReport& r) {
  nlohmann::json j;
  j["rig"] = r.rig;
  j["scenario"] = r.scenario;
  j["uri"] = r.uri;
  j["scenario_time_s"] = r.scenario_time_s;
  j["cycles"] = r.cycles;
  j["holding_cycles"] = r.holding_cycles;
  j["interrupted"] = r.interrupted;
  j["rig_gone"] = r.rig_gone;
  j["realtime"] = r.status.realtime();
  for (const ReceivedMessageReport& m : r.received) {
    j["rx"].push_back({{"name", m.name},
                       {"cycle_s", m.cycle_s},
                       {"frames", m.frames},
                       {"errors", m.errors},
                       {"counter_jumps", m.counter_jumps},
                       {"crc_errors", m.crc_errors},
                       {"counter_errors", m.counter_errors},
                       {"length_errors", m.length_errors},
                       {"timeouts", m.timeouts},
                       {"periods", m.periods.periods},
                       {"period_mean_s", m.periods.mean_s},
                       {"period_min_s", m.periods.min_s},
                       {"period_max_s", m.periods.max_s},
                       {"deviation_p99_us", m.deviation_p99_us},
                       {"deviation_max_us", m.deviation_max_us}});
  }
  for (const SentMessageReport& m : r.sent) {
    j["tx"].push_back(
        {{"name", m.name}, {"frames", m.frames}, {"errors", m.errors}, {"drops", m.drops}});
  }
  const io::can::TransportStats& t = r.transport;
  j["transport"] = {{"rx_frames", t.rx_frames},
                    {"tx_frames", t.tx_frames},
                    {"drops", t.total_drops()},
                    {"sequence_gaps", t.sequence_gaps},
                    {"sequence_lost", t.sequence_lost},
                    {"sequence_late", t.sequence_late},
                    {"errors", t.errors}};
  if (r.verdict) {
    j["verdict"]["passed"] = r.verdict->passed;
    for (const runtime::GateResult& g : r.verdict->gates) {
      j["verdict"]["gates"].push_back(
          {{"name", g.name}, {"kind", g.kind}, {"passed", g.passed}, {"detail", g.detail}});
    }
  }
  return j;
}

}  // namespace hil::session
