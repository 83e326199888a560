#include "tools/cli/timing_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "rt_core/executive.hpp"
#include "tools/cli/cli_validators.hpp"
#include "tools/session/timing/timing_session.hpp"

namespace hil::cli {

namespace {

/// The flags as typed; given ones go into the session's options (only those given apply).
struct TimingFlags {
  std::string period;
  std::string duration = "10s";
  int priority = 0;
  int cpu = 0;
  std::string policy;
  std::uint32_t catch_up_max = 0;
  std::uint32_t stop_after = 0;
  std::int64_t window_ticks = 0;
  std::string json_path;
  session::TimingSpec options;
};

constexpr std::array kPolicies = {rt::OverrunKind::skip, rt::OverrunKind::catch_up,
                                  rt::OverrunKind::stop_after};

rt::OverrunKind policy_named(std::string_view name) {
  for (const rt::OverrunKind kind : kPolicies) {
    if (rt::to_string(kind) == name) return kind;
  }
  throw std::invalid_argument("unknown overrun policy '" + std::string(name) + "'");
}

/// The options as given on the command line.
session::TimingSpec given(const TimingFlags& f, const CLI::App& cmd) {
  const auto has = [&cmd](const char* flag) { return cmd.count(flag) > 0; };
  session::TimingSpec o = f.options;
  if (has("--period")) o.period = duration_value(f.period);
  o.duration = duration_value(f.duration);
  if (has("--priority")) o.priority = f.priority;
  if (has("--cpu")) o.cpu = f.cpu;
  if (has("--policy")) o.policy = policy_named(f.policy);
  if (has("--catch-up-max")) o.catch_up_max = f.catch_up_max;
  if (has("--stop-after")) o.stop_after = f.stop_after;
  if (has("--window")) o.window_ticks = f.window_ticks;
  return o;
}

}  // namespace

void add_timing_command(CLI::App& app) {
  auto flags = std::make_shared<TimingFlags>();
  session::TimingSpec* options = &flags->options;
  CLI::App* cmd = app.add_subcommand(
      "timing",
      "Run the fixed-step executive (a synthetic load, or a rig with --rig) and report its timing");
  cmd->footer(
      "Examples:\n"
      "  hilsim timing                                   # 250us for 10s, 20us of load, FIFO 80\n"
      "  hilsim timing --period 100us --duration 60s --cpu 1 --json timing.json\n"
      "  hilsim timing --compare-cyclictest              # then run cyclictest alike, compare p99\n"
      "  hilsim timing --rig ravon --duration 30s        # the full RAVON rig as the load\n"
      "  hilsim timing --config hil_rigs/bench/rig.pbtxt --overlay "
      "hil_rigs/bench/overlay_fast.pbtxt\n"
      "\n"
      "Exit status: 0 when the run completed, 3 when the stop_after policy ended it.\n"
      "Without CAP_SYS_NICE / a memlock limit / a PREEMPT_RT kernel it still runs and reports\n"
      "\"not real-time\" with the fix for each missing piece.\n");
  cmd->add_option("--period", flags->period, "Base period (default 250us)")
      ->check(duration_in(rt::kMinPeriod, rt::kMaxPeriod));
  cmd->add_option("--duration", flags->duration, "How long to run (default 10s)")
      ->check(duration_in(rt::kMillisecond, rt::kSecond * 24 * 3600));
  cmd->add_option("--priority", flags->priority, "SCHED_FIFO priority, 0 = normal thread")
      ->check(CLI::Range(0, 99));
  cmd->add_option("--cpu", flags->cpu, "Pin the loop to this CPU")
      ->check(CLI::Range(0, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)) - 1));
  cmd->add_option("--load-us", options->load_us, "Synthetic work per tick in microseconds")
      ->check(CLI::Range(0.0, 100'000.0));
  cmd->add_option("--policy", flags->policy, "Overrun policy: skip, catch_up or stop_after")
      ->check(CLI::IsMember({"skip", "catch_up", "stop_after"}));
  cmd->add_option("--catch-up-max", flags->catch_up_max,
                  "catch_up: most missed ticks run back to back (default 4)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--stop-after", flags->stop_after,
                  "stop_after: stop after this many overruns within --window (default 10)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--window", flags->window_ticks, "stop_after: window in ticks (default 4000)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--config", options->config_path,
                  "Take the executive settings from this rig file (flags given here win)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--rig", options->rig,
                  "Run this rig's own tasks (vehicle, CAN, its default scenario with the built-in "
                  "ECU) instead of the synthetic load; its executive settings, then the flags")
      ->type_name("NAME")
      ->excludes("--config")
      ->excludes("--load-us");
  cmd->add_option("--overlay", options->overlays, "Overlay on --config or --rig, in order")
      ->allow_extra_args(false);
  cmd->add_option("--json", flags->json_path, "Also write the figures to this JSON file");
  cmd->add_flag("--compare-cyclictest", options->compare_cyclictest,
                "Then run cyclictest (rt-tests) alike and report ratio_p99 = ours / theirs");
  cmd->add_flag("-q,--quiet", options->quiet, "No progress output");
  add_console_option(*cmd, options->console);
  cmd->callback([flags, cmd] {
    const std::optional<session::TimingReport> report = session::run_timing(given(*flags, *cmd));
    if (!report) throw CLI::RuntimeError(1);
    fmt::print("{}", session::format_summary(*report));
    if (!flags->json_path.empty()) {
      std::ofstream out(flags->json_path);
      out << to_json(*report).dump(2) << "\n";
      if (!out) throw std::runtime_error("cannot write " + flags->json_path);
    }
    if (report->result.reason == rt::StopReason::overrun_limit) throw CLI::RuntimeError(3);
  });
}

}  // namespace hil::cli
