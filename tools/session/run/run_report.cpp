#include "tools/session/run/run_report.hpp"
#include "io/can/uds/uds_codec.hpp"
#include "tools/ecu/diag/ecu_diagnostics.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <unistd.h>
#include <cmath>

#include <array>
#include <nlohmann/json.hpp>

#include "io/bus/mirror/mirror_health.hpp"
#include "tools/session/run/can_link_report.hpp"
#include "tools/session/run/run_directory.hpp"
#include "tools/session/timing/timing_report.hpp"

namespace hil::session {

namespace {

double seconds(std::int64_t ticks, rt::Nanoseconds period) {
  return static_cast<double>(ticks) * static_cast<double>(period) * 1e-9;
}

double wall_seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

struct CanTotals {
  std::uint64_t rx = 0, tx = 0, rx_dropped = 0, unknown = 0, tx_dropped = 0, timeouts = 0;
};

CanTotals can_totals(const runtime::Rig& rig) {
  CanTotals t;
  for (const auto& bus : rig.buses()) {
    for (std::size_t i = 0; i < bus->rx_count(); ++i) {
      const io::can::MessageCounters& c = bus->rx_counters(i);
      t.rx += c.frames.load(std::memory_order_relaxed);
      t.rx_dropped += c.drops.load(std::memory_order_relaxed);
      t.timeouts += c.timeouts.load(std::memory_order_relaxed);
    }
    for (std::size_t i = 0; i < bus->tx_count(); ++i) {
      t.tx += bus->tx_counters(i).frames.load(std::memory_order_relaxed);
      t.tx_dropped += bus->tx_counters(i).drops.load(std::memory_order_relaxed);
    }
    t.unknown += bus->unknown_frames();
  }
  return t;
}

std::string hostname() {
  std::array<char, 256> name{};
  return gethostname(name.data(), name.size()) == 0 ? std::string(name.data()) : "unknown";
}

/// The device under test's messages on `bus`: totals, then each message with a problem.
std::string dut_summary(const io::can::CanBus& bus) {
  struct Line {
    std::uint64_t frames = 0, timeouts = 0, repeated = 0, wrong_sequence = 0, errors = 0,
                  no_data = 0;
    [[nodiscard]] std::string text() const {
      return fmt::format(
          "{} frames, {} timeouts, E2E/counter: {} repeated, {} wrong sequence, "
          "{} CRC/data id errors, {} cycles without data",
          frames, timeouts, repeated, wrong_sequence, errors, no_data);
    }
  };
  Line total;
  std::string details;
  std::size_t n = 0;
  for (std::size_t i = 0; i < bus.rx_count(); ++i) {
    if (!bus.rx_from_dut(i)) continue;
    const io::can::MessageCounters& c = bus.rx_counters(i);
    const Line l{c.frames.load(),
                 c.timeouts.load(),
                 c.counter_errors.load(),
                 c.wrong_sequence.load(),
                 c.crc_errors.load() + c.length_errors.load(),
                 c.no_data.load()};
    ++n;
    total.frames += l.frames;
    total.timeouts += l.timeouts;
    total.repeated += l.repeated;
    total.wrong_sequence += l.wrong_sequence;
    total.errors += l.errors;
    total.no_data += l.no_data;
    if (l.timeouts + l.repeated + l.wrong_sequence + l.errors + l.no_data > 0 || l.frames == 0) {
      details += fmt::format("    {}: {}\n", bus.rx_name(i), l.text());
    }
  }
  if (n == 0) return {};
  return fmt::format("  device under test on {}: {} messages checked, {}\n", bus.name(), n,
                     total.text()) +
         details;
}

}  // namespace

std::string describe_tester(const runtime::DiagTester& t) {
  const std::string reads = t.read_period_s() > 0
                                ? fmt::format("{} DTC reads (19 02 FF every {:g} ms)",
                                              t.dtc_reads(), t.read_period_s() * 1e3)
                                : "no DTC reads";
  return fmt::format("{}, {} requests of the API and the scenario answered", reads, t.replies());
}

std::string describe_dtcs(const ecu::diag::EcuDiagnostics& d) {
  std::string out;
  const io::can::uds::DtcStore& store = d.dtcs();
  for (std::size_t i = 0; i < store.count(); ++i) {
    const std::uint8_t s = store.status(i);
    if ((s & ~io::can::uds::dtc_status::kInitial) == 0) continue;  // never failed
    out += fmt::format("{}{:06X} {} 0x{:02X} ({})", out.empty() ? "" : "; ", store.spec(i).code,
                       store.spec(i).name, s, io::can::uds::status_text(s));
  }
  return fmt::format("{}; {} UDS requests answered", out.empty() ? "none set" : out, d.requests());
}

std::string progress_line(const RunReport& r, const rt::TimingSnapshot& s,
                          std::chrono::steady_clock::duration wall) {
  const rt::Nanoseconds period = r.settings->executive.period;
  const double sim = seconds(s.ticks, period);
  const double w = wall_seconds(wall);
  std::string line =
      fmt::format("sim {:7.1f} s  RTF {:4.2f}  overruns {}  wake p99 {:.0f} us", sim,
                  w > 0 ? sim / w : 0.0, s.overruns, s.wake_latency.percentile_us(0.99));
  if (r.runtime != nullptr && !r.runtime->buses().empty()) {
    const CanTotals c = can_totals(*r.runtime);
    line += fmt::format("  can rx {} tx {}  timeouts {}", c.rx, c.tx, c.timeouts);
  }
  return line;
}

std::string bus_summary(runtime::Rig& rig) {
  io::bus::BusExchange* task = rig.bus();
  if (task == nullptr) return {};
  io::bus::LiveBus* live = rig.live_bus();
  std::string out = fmt::format(
      "  bus {}{}:", task->schema().name,
      live != nullptr ? fmt::format(" ({})", live->endpoint().string()) : std::string());
  for (std::size_t i = 0; i < task->schema().regions.size(); ++i) {
    const io::bus::RegionSchema& region = task->schema().regions[i];
    const io::bus::RegionCounters& c = task->counters(static_cast<std::uint32_t>(i));
    if (region.direction == io::bus::RegionDirection::output) {
      out += fmt::format("\n    {} out: {} published", region.name, c.applied.load());
      continue;
    }
    out += fmt::format(
        "\n    {} in from {}: {} applied, timeouts {}, lost {}, rejected {}, clamped {}, writer "
        "restarts {}{}",
        region.name, region.writer, c.applied.load(), c.timeouts.load(), c.lost.load(),
        c.rejected.load(), c.clamped.load(), c.writer_restarts.load(),
        live != nullptr ? fmt::format(", contention {}",
                                      live->input().contention(static_cast<std::uint32_t>(i)))
                        : std::string());
  }
  out += "\n";
  if (live != nullptr && live->mirror() != nullptr) {  // docs/bus.md "Mirror health"
    out += io::bus::mirror::mirror_health_text(
        io::bus::mirror::mirror_health_json(*live->mirror(), task->schema()));
  }
  return out;
}

std::string run_summary(const RunReport& r) {
  const rt::Nanoseconds period = r.settings->executive.period;
  const double sim = seconds(r.stats.ticks, period);
  const double w = wall_seconds(r.wall);
  std::string out =
      fmt::format("hilsim run: {}{} — {}: {:.1f} s simulated in {:.1f} s (RTF {:.2f})\n", r.rig,
                  r.scenario.empty() ? "" : fmt::format(", scenario {}", r.scenario), r.ending, sim,
                  w, w > 0 ? sim / w : 0.0);
  if (r.speed.realtime()) {
    out += fmt::format("  {}\n", r.status.summary());
  } else {
    out += fmt::format(
        "  speed {}: {}, no real-time setup (simulated time is exact; the "
        "figures below are this machine's work per tick)\n",
        r.speed.to_string(),
        r.speed.mode == Speed::Mode::max ? "as fast as possible" : "paced on the monotonic clock");
  }
  out +=
      fmt::format("  ticks {} at {}, overruns {}, wake-up latency p99 {:.0f} us, max {:.1f} us\n",
                  r.stats.ticks, rt::format_duration(period), r.stats.overruns,
                  r.stats.wake_latency.percentile_us(0.99),
                  static_cast<double>(r.stats.wake_latency.max_ns) / 1e3);
  if (r.runtime != nullptr) {
    for (const auto& bus : r.runtime->buses()) {
      CanTotals c;
      for (std::size_t i = 0; i < bus->rx_count(); ++i) {
        c.rx += bus->rx_counters(i).frames.load();
        c.rx_dropped += bus->rx_counters(i).drops.load();
        c.timeouts += bus->rx_counters(i).timeouts.load();
      }
      c.tx = bus->tx_total();  // the mapping's frames and the unmapped ones (radar, UDS)
      c.tx_dropped = bus->tx_failed_total();
      out += fmt::format(
          "  CAN {} ({}): ECU frames in {} ({} refused, {} unknown id), out {} ({} not sent), "
          "timeouts {}\n",
          bus->name(), bus->transport().name(), c.rx, c.rx_dropped, bus->unknown_frames(), c.tx,
          c.tx_dropped, c.timeouts);
      out += can_link_summary(bus->name(), bus->transport());
      out += dut_summary(*bus);
    }
  }
  if (r.runtime != nullptr) out += bus_summary(*r.runtime);
  if (!r.ecu.empty()) out += fmt::format("  ECU: {}\n", r.ecu);
  if (!r.diagnostics.empty()) out += fmt::format("  ECU DTCs: {}\n", r.diagnostics);
  if (!r.tester.empty()) out += fmt::format("  UDS tester: {}\n", r.tester);
  if (r.runtime != nullptr && r.runtime->vehicle() != nullptr) {
    const models::VehicleOutputs& v = r.runtime->vehicle()->outputs();
    std::string faults;
    if (v.safe_state) {
      faults = fmt::format(
          "SAFE STATE since {:.3f} s (a non-finite vehicle state or output; the "
          "vehicle held at rest, no NaN sent)",
          v.safe_state_since);
    }
    if (v.rejected_inputs != 0) {
      faults += fmt::format("{}{} non-finite inputs replaced", faults.empty() ? "" : "; ",
                            v.rejected_inputs);
    }
    if (!r.faults.empty()) faults = r.faults + (faults.empty() ? "" : "; " + faults);
    out += fmt::format("  faults: {}\n", faults.empty() ? std::string("none") : faults);
  }
  if (r.runtime != nullptr) {
    for (const auto& f : r.runtime->fmus()) out += fmt::format("  {}\n", f->report());
    for (const auto& l : r.runtime->lidars()) {  // runtime/sensors/lidar_stage.hpp
      out += fmt::format("  {}\n", l->report(seconds(r.stats.ticks, period)));
    }
  }
  if (!r.verdict.empty()) out += fmt::format("  scenario: {}\n", r.verdict);
  if (r.run_dir && r.recording) {
    const runtime::RecordingCounters& rec = *r.recording;
    out += fmt::format(
        "  recording: {} (telemetry {} samples, {} dropped; can.log {} frames, {} dropped{}){}\n",
        r.run_dir->string(), rec.telemetry.samples_recorded, rec.telemetry.samples_dropped,
        rec.can_log.frames_written, rec.can_log.frames_dropped,
        rec.bus_log ? fmt::format("; bus.log {} snapshots, {} dropped",
                                  rec.bus_log->snapshots_written, rec.bus_log->snapshots_dropped)
                    : std::string(),
        rec.errors.empty() ? "" : " — ERROR: " + rec.errors);
  } else {
    out += "  recording: off (--no-record)\n";
  }
  return out;
}

nlohmann::json manifest_json(const RunReport& r) {
  const config::RigSpec& s = *r.settings;
  nlohmann::json j = {
      {"hilsim_version", hilsim_version()},
      {"git_revision", git_revision()},
      {"rig", r.rig},
      {"rig_file", r.rig_file.string()},
      {"config_hash", r.config_hash},
      {"seed", s.vehicle ? s.vehicle->seed : 0},
      {"period_ns", s.executive.period},
      {"start_epoch_ns", r.start_epoch_ns},
      {"start_time_utc",
       fmt::format("{:%Y-%m-%dT%H:%M:%SZ}",
                   std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::time_point(
                       std::chrono::nanoseconds(r.start_epoch_ns))))},
      {"host", hostname()},
      {"scenario", r.scenario},
      {"ecu", r.ecu},
      {"ecu_dtcs", r.diagnostics},
      {"uds_tester", r.tester},
      {"speed", r.speed.to_string()},
      {"realtime", r.speed.realtime() && r.status.realtime()},
      {"realtime_summary", r.status.summary()},
  };
  if (!r.console_url.empty()) j["console_url"] = r.console_url;
  j["buses"] = nlohmann::json::array();
  if (r.runtime != nullptr) {
    for (const auto& bus : r.runtime->buses()) {
      j["buses"].push_back({{"name", bus->name()},
                            {"transport", bus->transport().name()},
                            {"transport_counters", can_link_json(bus->transport())}});
    }
  }
  if (r.runtime != nullptr && r.runtime->live_bus() != nullptr &&
      r.runtime->live_bus()->mirror() != nullptr && r.runtime->bus() != nullptr) {
    j["bus_mirror"] = io::bus::mirror::mirror_health_json(*r.runtime->live_bus()->mirror(),
                                                          r.runtime->bus()->schema());
  }
  if (r.runtime != nullptr && r.runtime->vehicle() != nullptr) {
    // which build of the vehicle's arithmetic ran: its replay runs the same (docs/recording.md)
    j["vehicle_math"] = std::string(r.runtime->vehicle()->model().math());
  }
  if (r.stats.ticks == 0 && !r.recording) {
    j["ended"] = "running";  // written at the start: a run that dies keeps this
    return j;
  }
  j["ended"] = r.ending;
  if (!r.faults.empty()) j["faults"] = r.faults;
  if (r.runtime != nullptr && !r.runtime->fmus().empty()) {
    j["fmus"] = nlohmann::json::array();
    for (const auto& f : r.runtime->fmus()) {
      const io::fmu::ProbeResult& probe = f->probe();
      j["fmus"].push_back(
          {{"report", f->report()},
           {"steps", f->steps()},
           {"failed", f->failed()},
           {"terminated_at",
            f->terminated_at() ? nlohmann::json(*f->terminated_at()) : nlohmann::json(nullptr)},
           {"realtime_safe", f->realtime_safe()},
           {"thread", f->on_worker() ? "worker" : "rt"},
           {"late_steps", f->late_steps()},
           {"probe_allocations",
            probe.allocations ? nlohmann::json(*probe.allocations) : nlohmann::json(nullptr)},
           {"probe_max_step_us", static_cast<double>(probe.max_step_ns) / 1e3}});
    }
  }
  j["ticks"] = r.stats.ticks;
  j["simulated_s"] = seconds(r.stats.ticks, s.executive.period);
  j["wall_s"] = wall_seconds(r.wall);
  j["overruns"] = r.stats.overruns;
  if (r.runtime != nullptr && r.runtime->vehicle() != nullptr) {
    const models::VehicleOutputs& v = r.runtime->vehicle()->outputs();
    j["safe_state"] = v.safe_state ? nlohmann::json(v.safe_state_since) : nlohmann::json(nullptr);
  }
  if (!r.verdict.empty()) j["scenario_verdict"] = r.verdict;
  if (r.gates) {
    nlohmann::json gates = nlohmann::json::array();
    for (const runtime::GateResult& g : r.gates->gates) {
      const bool decided = r.whole_scenario || g.reached;
      gates.push_back({{"name", g.name},
                       {"kind", g.kind},
                       {"result", !decided   ? "undecided"
                                  : g.passed ? "passed"
                                             : "failed"},
                       {"value", std::isfinite(g.value) ? nlohmann::json(g.value) : nullptr},
                       {"unit", g.unit},
                       {"detail", g.detail}});
    }
    j["scenario_gates"] = gates;
    j["scenario_passed"] = !r.failed;
  }
  if (r.recording) {
    const runtime::RecordingCounters& rec = *r.recording;
    j["recording"] = {
        {"ended", rec.ended()},
        {"telemetry_files", rec.telemetry.files},
        {"telemetry_bytes", rec.telemetry.bytes_written},
        {"telemetry_stopped_at_tick", rec.telemetry.stopped_at_tick >= 0
                                          ? nlohmann::json(rec.telemetry.stopped_at_tick)
                                          : nlohmann::json(nullptr)},
        {"telemetry_samples", rec.telemetry.samples_recorded},
        {"telemetry_dropped", rec.telemetry.samples_dropped},
        {"events", rec.telemetry.events_recorded},
        {"can_frames", rec.can_log.frames_written},
        {"can_frames_dropped", rec.can_log.frames_dropped},
        {"errors", rec.errors}};
    if (rec.bus_log) {
      j["recording"]["bus_snapshots"] = rec.bus_log->snapshots_written;
      j["recording"]["bus_snapshots_dropped"] = rec.bus_log->snapshots_dropped;
    }
  }
  return j;
}

nlohmann::json timing_json(const RunReport& r) {
  TimingReport t;
  t.config = r.settings->executive;
  t.config.task_timing_stride = r.speed.task_timing_stride();  // as the harness ran it
  t.rt_options = r.settings->rt;
  t.duration = r.stats.ticks * r.settings->executive.period;
  t.status = r.status;
  t.result = r.result;
  t.stats = r.stats;
  return to_json(t);
}

}  // namespace hil::session
