#include "tools/cli/timing_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>

#include "config/loader.hpp"
#include "config/rig_locator.hpp"
#include "rt_core/executive.hpp"
#include "tools/cli/cli_validators.hpp"
#include "tools/session/config_errors.hpp"
#include "tools/session/console_feed.hpp"
#include "tools/session/harness.hpp"
#include "tools/session/rig_setup.hpp"
#include "tools/session/timing/cyclictest.hpp"
#include "tools/session/timing/timing_report.hpp"

namespace hil::cli {

namespace {

/// The flags as typed. Executive and RT settings apply only when given (resolve_settings);
/// their defaults are those of rt::ExecutiveConfig and rt::RtOptions.
struct TimingOptions {
  std::string period;
  std::string duration = "10s";
  int priority = 0;
  std::optional<int> cpu;
  double load_us = 20.0;
  std::string rig;  ///< --rig: the rig's own tasks (its scenario and virtual ECU) as the load
  std::string policy;
  std::uint32_t catch_up_max = 0;
  std::uint32_t stop_after = 0;
  std::int64_t window_ticks = 0;
  std::string config_path;
  std::vector<std::filesystem::path> overlays;
  std::string json_path;
  bool compare_cyclictest = false;
  bool quiet = false;
  io::console::ConsoleOptions console;
};

/// The synthetic workload: busy-waits a fixed time every tick.
class SpinTask final : public rt::Stage {
 public:
  explicit SpinTask(rt::Nanoseconds cost) : cost_(cost) {}
  void run(const rt::TickContext& /*ctx*/) noexcept override { rt::spin_for(cost_); }

 private:
  rt::Nanoseconds cost_;
};

constexpr std::array kPolicies = {rt::OverrunKind::skip, rt::OverrunKind::catch_up,
                                  rt::OverrunKind::stop_after};

rt::OverrunKind policy_named(std::string_view name) {
  for (const rt::OverrunKind kind : kPolicies) {
    if (rt::to_string(kind) == name) return kind;
  }
  throw std::invalid_argument("unknown overrun policy '" + std::string(name) + "'");
}

/// Executive and RT settings: defaults, then the rig file and its overlays, then the flags
/// given on the command line. Prints every config error and fails with exit status 1.
void resolve_settings(const TimingOptions& o, const CLI::App& cmd, session::TimingReport& report) {
  const std::string rig_file = o.rig.empty() ? o.config_path : config::locate_rig(o.rig).string();
  if (!rig_file.empty()) {
    const config::LoadResult loaded = config::load_rig_config(rig_file, o.overlays);
    if (!loaded.ok()) {
      session::print_config_errors(loaded.errors, rig_file);
      throw CLI::RuntimeError(1);
    }
    report.config = loaded.settings->executive;
    report.rt_options = loaded.settings->rt;
  }
  const auto given = [&cmd](const char* flag) { return cmd.count(flag) > 0; };
  if (given("--period")) report.config.period = duration_value(o.period);
  rt::OverrunPolicy& policy = report.config.overrun;
  if (given("--policy")) policy.kind = policy_named(o.policy);
  if (given("--catch-up-max")) policy.catch_up_max = o.catch_up_max;
  if (given("--stop-after")) policy.stop_after_overruns = o.stop_after;
  if (given("--window")) policy.stop_after_window_ticks = o.window_ticks;
  if (given("--priority")) report.rt_options.priority = o.priority;
  if (given("--cpu")) report.rt_options.cpu = o.cpu;
  report.duration = duration_value(o.duration);
  report.load = o.rig.empty() ? static_cast<rt::Nanoseconds>(o.load_us * 1e3) : 0;
}

int run_timing(const TimingOptions& o, const CLI::App& cmd) {
  session::TimingReport report;
  resolve_settings(o, cmd, report);
  const std::int64_t ticks = std::max<std::int64_t>(1, report.duration / report.config.period);

  SpinTask load(report.load);
  runtime::TickPlan plan;
  std::unique_ptr<session::RigSetup> rig;
  if (!o.rig.empty()) {  // the full rig: its tasks are the load
    session::RigSelection selection{.rig = o.rig};
    for (const std::filesystem::path& overlay : o.overlays) {
      selection.overlays.push_back(overlay.string());
    }
    rig = session::set_up_rig(selection);
    if (!rig) return 1;
    for (const auto& f : rig->runtime->fmus()) f->set_realtime(true);  // never waits for a worker
    plan = rig->plan;
    report.workload = fmt::format(
        "rig {}{}, ECU {}", rig->rig,
        rig->scenario_file ? fmt::format(", scenario {}", rig->scenario_file->stem().string())
                           : std::string(),
        rig->ecu);
  } else {
    plan.add(runtime::Slot::models, "synthetic_load", load);
  }
  // Without a rig the console shows the timing only: an empty channel table
  rt::ChannelTable no_channels;
  no_channels.freeze();
  io::console::ConsoleFeed feed;
  if (rig) {
    feed = session::console_feed(*rig->runtime,
                                 {.rig = rig->rig,
                                  .run_id = fmt::format("timing-{}-{}", rig->rig, ::getpid()),
                                  .scenario = rig->scenario ? &*rig->scenario : nullptr});
  } else {
    feed.table = &no_channels;
    feed.run = {.rig = "synthetic load",
                .run_id = fmt::format("timing-{}", ::getpid()),
                .speed = "realtime",
                .period_ns = report.config.period};
  }
  session::Harness harness(report.config, std::move(plan),
                           {.rt = report.rt_options,
                            .quiet = o.quiet,
                            .name = "timing",
                            .console = o.console,
                            .console_feed = std::move(feed)});
  if (rig) {
    for (const rt::StageEntry& t : harness.executive().stages())
      report.task_names.push_back(t.name);
  }
  const session::RunOutcome outcome = harness.run(
      ticks, {.progress = [&](const rt::TimingSnapshot& s, std::chrono::steady_clock::duration) {
        return fmt::format("[{:3.0f}%] {} ticks, {} overruns, wake-up p99 {:.0f} us, max {:.0f} us",
                           100.0 * static_cast<double>(s.ticks) / static_cast<double>(ticks),
                           s.ticks, s.overruns, s.wake_latency.percentile_us(0.99),
                           static_cast<double>(s.wake_latency.max_ns) / 1e3);
      }});
  report.status = outcome.status;
  report.result = outcome.result;
  report.stats = outcome.stats;

  if (o.compare_cyclictest) {
    if (!o.quiet) {
      fmt::print(stderr, "running cyclictest for {} with the same period, priority and CPU...\n",
                 rt::format_duration(ticks * report.config.period));
    }
    report.cyclictest = session::run_cyclictest({.period = report.config.period,
                                                 .loops = ticks,
                                                 .priority = report.rt_options.priority,
                                                 .cpu = report.rt_options.cpu});
  }

  fmt::print("{}", session::format_summary(report));
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    out << to_json(report).dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + o.json_path);
  }
  return report.result.reason == rt::StopReason::overrun_limit ? 3 : 0;
}

}  // namespace

void add_timing_command(CLI::App& app) {
  auto options = std::make_shared<TimingOptions>();
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
  cmd->add_option("--period", options->period, "Base period (default 250us)")
      ->check(duration_in(rt::kMinPeriod, rt::kMaxPeriod));
  cmd->add_option("--duration", options->duration, "How long to run (default 10s)")
      ->check(duration_in(rt::kMillisecond, rt::kSecond * 24 * 3600));
  cmd->add_option("--priority", options->priority, "SCHED_FIFO priority, 0 = normal thread")
      ->check(CLI::Range(0, 99));
  cmd->add_option("--cpu", options->cpu, "Pin the loop to this CPU")
      ->check(CLI::Range(0, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)) - 1));
  cmd->add_option("--load-us", options->load_us, "Synthetic work per tick in microseconds")
      ->check(CLI::Range(0.0, 100'000.0));
  cmd->add_option("--policy", options->policy, "Overrun policy: skip, catch_up or stop_after")
      ->check(CLI::IsMember({"skip", "catch_up", "stop_after"}));
  cmd->add_option("--catch-up-max", options->catch_up_max,
                  "catch_up: most missed ticks run back to back (default 4)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--stop-after", options->stop_after,
                  "stop_after: stop after this many overruns within --window (default 10)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--window", options->window_ticks, "stop_after: window in ticks (default 4000)")
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
  cmd->add_option("--json", options->json_path, "Also write the figures to this JSON file");
  cmd->add_flag("--compare-cyclictest", options->compare_cyclictest,
                "Then run cyclictest (rt-tests) alike and report ratio_p99 = ours / theirs");
  cmd->add_flag("-q,--quiet", options->quiet, "No progress output");
  add_console_option(*cmd, options->console);
  cmd->callback([options, cmd] {
    const int code = run_timing(*options, *cmd);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace hil::cli
