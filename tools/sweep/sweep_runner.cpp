#include "tools/sweep/sweep_runner.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <deque>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tools/session/run/run_directory.hpp"
#include "tools/session/run/run_session.hpp"
#include "tools/sweep/sweep_worker.hpp"

namespace hil::sweep {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr auto kProgressEvery = std::chrono::seconds(1);
constexpr auto kRecheck = std::chrono::milliseconds(50);  // past a deadline: check again
constexpr auto kKillAfter = std::chrono::seconds(5);      // SIGTERM, then SIGKILL
constexpr int kExitFailed = 4;

std::atomic<int> g_stop_signal{0};

void on_sweep_stop_signal(int signal) {
  g_stop_signal.store(signal);
  ChildWatch::wake();
}

/// What identifies a variant's run: its parameters, scenario, rig and duration (not where
/// the plan was read from).
std::string variant_hash(const config::SweepPlan& plan, const config::Variant& v) {
  std::string key =
      fmt::format("{}\n{}\n{}\n", v.scenario, plan.rig(), plan.duration_s().value_or(0.0));
  for (const config::Parameter& p : v.parameters) key += fmt::format("{}={}\n", p.field, p.value);
  return session::config_hash(key);
}

std::string index_name(std::size_t index) { return fmt::format("{:06}", index); }

/// The variant's overlay, whole or not at all (a temporary renamed) but not synced to disk:
/// it is made again from the plan whenever its variant runs, and a variant counts as done only
/// by its sweep.json (synced). Saves the next variant a disk flush before it starts.
void write_overlay(const fs::path& file, const std::string& text) {
  const fs::path tmp = fs::path(file) += fmt::format(".{}.tmp", getpid());
  {
    std::ofstream out(tmp, std::ios::trunc | std::ios::binary);
    out << text;
    if (!out.flush()) throw std::runtime_error(fmt::format("cannot write '{}'", tmp.string()));
  }
  fs::rename(tmp, file);
}

/// A variant already run to a verdict with the same hash.
bool already_done(const fs::path& dir, const std::string& hash, VariantOutcome& outcome) {
  std::ifstream in(dir / "sweep.json");
  if (!in) return false;
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || j.value("variant_hash", std::string()) != hash) return false;
  const Status s = status_from(j.value("status", std::string()));
  if (s != Status::passed && s != Status::failed) return false;
  outcome.status = s;
  outcome.exit_status = j.value("exit_status", -1);
  outcome.wall_s = j.value("wall_s", 0.0);
  outcome.skipped = true;
  return true;
}

struct Child {
  pid_t pid = -1;
  config::Variant variant;
  std::string hash;
  fs::path tmp;
  fs::path log;
  Clock::time_point started;
  bool timed_out = false;
  bool killed = false;
  Clock::time_point term_sent;
  bool warm = false;        ///< forked from a warmed-up worker
  Clock::time_point ended;  ///< when it was reaped
};

/// What the variant runs: `hilsim run`'s recipe with the variant's overlay, as fast as
/// possible, without RT privileges or a console, recorded into `record`, quiet.
session::RunSpec variant_run(const config::SweepPlan& plan, const config::Variant& v,
                             const fs::path& overlay, const fs::path& record) {
  session::RunSpec o{
      .rig = {.rig = plan.rig(), .overlays = {overlay.string()}, .scenario = v.scenario},
      .record_dir = record.string(),
      .no_rt = true,
      .speed = {.mode = session::Speed::Mode::max},
      .quiet = true,
      .console = {.enabled = false}};
  if (plan.duration_s()) o.duration = fmt::format("{}s", *plan.duration_s());
  return o;
}

class Progress {
 public:
  Progress(const config::SweepPlan& plan, std::size_t total, bool enabled)
      : plan_(plan), total_(total), enabled_(enabled) {}

  void count(const VariantOutcome& o) { ++by_status_[static_cast<std::size_t>(o.status)]; }

  void maybe_print(std::size_t running, bool force = false) {
    const auto now = Clock::now();
    if (!enabled_ || (!force && now - last_ < std::chrono::seconds(1))) return;
    last_ = now;
    std::size_t done = 0;
    for (const std::size_t n : by_status_) done += n;
    std::string counts;
    for (std::size_t s = 0; s < by_status_.size(); ++s) {
      if (by_status_[s] == 0) continue;
      counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", by_status_[s],
                            to_string(static_cast<Status>(s)));
    }
    const int width = 30;
    const auto filled = static_cast<int>(static_cast<double>(width) * static_cast<double>(done) /
                                         static_cast<double>(std::max<std::size_t>(total_, 1)));
    fmt::print(stderr, "sweep {}: [{:#<{}}{:.<{}}] {} of {} done{}{}, {} running, {:.1f} s\n",
               plan_.name(), "", filled, "", width - filled, done, total_,
               counts.empty() ? "" : " (", counts.empty() ? "" : counts + ")", running,
               std::chrono::duration<double>(now - started_).count());
  }

 private:
  const config::SweepPlan& plan_;
  std::size_t total_;
  bool enabled_;
  std::array<std::size_t, 6> by_status_{};
  Clock::time_point started_ = Clock::now();
  Clock::time_point last_ = started_;
};

VariantOutcome finish(const config::SweepPlan& plan, const RunnerSpec& o, Child& c,
                      int wait_status) {
  VariantOutcome out{.index = c.variant.index};
  out.wall_s = std::chrono::duration<double>(c.ended - c.started).count();
  if (WIFEXITED(wait_status)) out.exit_status = WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) out.signal = WTERMSIG(wait_status);
  if (c.timed_out) {
    out.status = Status::timed_out;
  } else if (c.killed) {
    out.status = Status::missing;  // stopped by the sweep's own stop: not a result
  } else if (out.signal != 0) {
    out.status = Status::crashed;
  } else if (out.exit_status == 0) {
    out.status = Status::passed;
  } else if (out.exit_status == kExitFailed) {
    out.status = Status::failed;
  } else {
    out.status = Status::error;
  }
  const fs::path dir = run_directory(o.out, c.variant.index);
  if (out.status == Status::missing) {  // leave no half run behind
    fs::remove_all(c.tmp);
    fs::remove(c.log);
    return out;
  }
  fs::remove_all(dir);
  if (fs::exists(c.tmp)) {
    fs::rename(c.tmp, dir);
  } else {
    fs::create_directories(dir);  // it failed before recording: keep its log and status
  }
  fs::rename(c.log, dir / "run.log");
  nlohmann::json parameters = nlohmann::json::object();
  for (const config::Parameter& p : c.variant.parameters) parameters[p.field] = p.value;
  session::write_json(dir, "sweep.json",
                      {{"sweep", plan.name()},
                       {"plan", fs::absolute(plan.file()).string()},
                       {"index", c.variant.index},
                       {"scenario", c.variant.scenario},
                       {"seed", c.variant.seed},
                       {"parameters", parameters},
                       {"status", to_string(out.status)},
                       {"exit_status", out.exit_status},
                       {"signal", out.signal},
                       {"wall_s", out.wall_s},
                       {"timeout_s", plan.timeout_s()},
                       {"variant_hash", c.hash},
                       {"worker", {{"pid", getpid()}, {"child_pid", c.pid}, {"warm", c.warm}}}});
  return out;
}

}  // namespace

std::string_view to_string(Status s) noexcept {
  switch (s) {
    case Status::passed:
      return "passed";
    case Status::failed:
      return "failed";
    case Status::error:
      return "error";
    case Status::crashed:
      return "crashed";
    case Status::timed_out:
      return "timed out";
    case Status::missing:
      return "missing";
  }
  return "missing";
}

Status status_from(std::string_view text) noexcept {
  for (const Status s :
       {Status::passed, Status::failed, Status::error, Status::crashed, Status::timed_out}) {
    if (text == to_string(s)) return s;
  }
  return Status::missing;
}

fs::path run_directory(const fs::path& out, std::size_t index) {
  return out / "runs" / index_name(index);
}

void write_plan_json(const config::SweepPlan& plan, const fs::path& out) {
  nlohmann::json variants = nlohmann::json::array();
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const config::Variant v = plan.variant(i);
    nlohmann::json parameters = nlohmann::json::object();
    for (const config::Parameter& p : v.parameters) parameters[p.field] = p.value;
    variants.push_back({{"index", i},
                        {"scenario", v.scenario},
                        {"grid_point", v.grid_point},
                        {"sample", v.sample},
                        {"repetition", v.repetition},
                        {"seed", v.seed},
                        {"parameters", parameters}});
  }
  fs::create_directories(out);
  // Several array tasks may write it at once: write_json goes through a temporary per process
  const nlohmann::json j{{"sweep", plan.name()},
                         {"plan", fs::absolute(plan.file()).string()},
                         {"rig", plan.rig()},
                         {"fields", plan.fields()},
                         {"per_task", plan.per_task()},
                         {"tasks", plan.tasks()},
                         {"timeout_s", plan.timeout_s()},
                         {"variants", variants}};
  session::write_json(out, "plan.json", j);
}

std::vector<VariantOutcome> run_variants(const config::SweepPlan& plan,
                                         std::span<const std::size_t> indices,
                                         const RunnerSpec& o) {
  fs::create_directories(o.out / "runs");
  fs::create_directories(o.out / "variants");
  g_stop_signal.store(0);
  struct sigaction action {};
  action.sa_handler = on_sweep_stop_signal;
  struct sigaction old_int {};
  struct sigaction old_term {};
  sigaction(SIGINT, &action, &old_int);
  sigaction(SIGTERM, &action, &old_term);

  std::deque<std::size_t> pending(indices.begin(), indices.end());
  std::map<pid_t, Child> running;
  std::vector<VariantOutcome> outcomes;
  Progress progress(plan, indices.size(), o.progress);
  const auto timeout =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(plan.timeout_s()));
  const ChildWatch watch;  // before the first fork: no SIGCHLD is missed
  bool warm = false;
  bool warmed_up = !o.warm_up;  // tried (once, before the first variant that runs)
  bool stopping = false;
  std::vector<std::pair<Child, int>> ended;  // reaped, not yet filed
  while (!pending.empty() || !running.empty() || !ended.empty()) {
    if (g_stop_signal.load() != 0 && !stopping) {
      stopping = true;
      pending.clear();
      for (auto& [pid, c] : running) {
        c.killed = true;
        c.term_sent = Clock::now();
        kill(-pid, SIGTERM);
      }
    }
    while (!stopping && !pending.empty() && running.size() < std::max(1U, o.jobs)) {
      Child c;
      c.variant = plan.variant(pending.front());
      pending.pop_front();
      c.hash = variant_hash(plan, c.variant);
      const fs::path dir = run_directory(o.out, c.variant.index);
      VariantOutcome done{.index = c.variant.index};
      if (already_done(dir, c.hash, done)) {
        outcomes.push_back(done);
        progress.count(done);
        continue;
      }
      const fs::path overlay = o.out / "variants" / (index_name(c.variant.index) + ".pbtxt");
      write_overlay(overlay, c.variant.overlay);
      if (!warmed_up) {  // the fork server's one-time load, with this variant's recipe
        warmed_up = true;
        warm = warm_up(o.warm_up, variant_run(plan, c.variant, overlay, {}),
                       o.out / "runs" / fmt::format(".warm-up.{}", getpid()));
      }
      c.tmp = o.out / "runs" / fmt::format(".{}.{}", index_name(c.variant.index), getpid());
      c.log = o.out / "runs" / fmt::format(".{}.{}.log", index_name(c.variant.index), getpid());
      fs::remove_all(c.tmp);
      c.warm = warm;
      c.started = Clock::now();
      c.pid = fork_variant(o.run_variant, variant_run(plan, c.variant, overlay, c.tmp), c.log);
      running.emplace(c.pid, std::move(c));
    }
    // What ended is filed once its slot runs the next variant: the next one does not wait
    // for the renames and sweep.json
    for (auto& [child, wait_status] : ended) {
      const VariantOutcome out = finish(plan, o, child, wait_status);
      if (out.status != Status::missing) {
        outcomes.push_back(out);
        progress.count(out);
      }
    }
    ended.clear();
    int wait_status = 0;
    for (pid_t pid = 0; (pid = waitpid(-1, &wait_status, WNOHANG)) > 0;) {
      const auto it = running.find(pid);
      if (it == running.end()) continue;
      it->second.ended = Clock::now();
      ended.emplace_back(std::move(it->second), wait_status);
      running.erase(it);
    }
    if (!ended.empty()) continue;
    // Time-outs and the progress line; then sleep until a child ends, a stop signal, or the
    // next deadline
    const auto now = Clock::now();
    Clock::duration until_next = kProgressEvery;
    for (auto& [child_pid, c] : running) {
      if (!c.timed_out && !c.killed && now - c.started > timeout) {
        c.timed_out = true;
        c.term_sent = now;
        kill(-child_pid, SIGTERM);
      } else if ((c.timed_out || c.killed) && now - c.term_sent > kKillAfter) {
        kill(-child_pid, SIGKILL);
      }
      const Clock::time_point next =
          c.timed_out || c.killed ? c.term_sent + kKillAfter : c.started + timeout;
      until_next = std::min(until_next, std::max<Clock::duration>(next - now, kRecheck));
    }
    progress.maybe_print(running.size());
    if (!running.empty()) ChildWatch::wait(until_next);
  }
  progress.maybe_print(0, true);
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  std::ranges::sort(outcomes, {}, &VariantOutcome::index);
  return outcomes;
}

int sweep_exit_status(std::span<const VariantOutcome> outcomes) noexcept {
  int worst = 0;
  for (const VariantOutcome& o : outcomes) {
    if (o.status == Status::failed) worst = std::max(worst, kExitFailed);
    if (o.status != Status::passed && o.status != Status::failed) return 1;
  }
  return worst;
}

}  // namespace hil::sweep
