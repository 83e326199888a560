#include "tools/session/run_console.hpp"

#include <fmt/format.h>

#include "tools/session/console_feed.hpp"

namespace hil::session {

namespace {

/// A paused run's gate as the console steps it (the harness's lock-step clock, once it exists).
io::console::ConsoleFeed::LockStep lock_step_feed(std::atomic<rt::LockStepClock*>& gate) {
  return {.step = [&gate](std::int64_t ticks, const double* watched,
                          rt::ChannelCondition condition) -> std::int64_t {
            rt::LockStepClock* g = gate.load();
            if (g == nullptr) return ticks;
            return watched != nullptr ? g->step_until(ticks, watched, condition) : g->step(ticks);
          },
          .pause =
              [&gate](bool pause) {
                if (rt::LockStepClock* g = gate.load()) pause ? g->pause() : g->resume();
              },
          .waiting_at = [&gate]() -> std::int64_t {
            rt::LockStepClock* g = gate.load();
            return g != nullptr && g->waiting() ? g->ticks_through() : -1;
          },
          .limit = [&gate]() -> std::int64_t {
            rt::LockStepClock* g = gate.load();
            return g != nullptr ? g->limit() : 0;
          }};
}

}  // namespace

io::console::ConsoleFeed console_feed_of(Run& run) {
  const Recipe& r = run.recipe;
  const std::string run_id = !r.run_id.empty() ? r.run_id
                             : run.run_dir     ? run.run_dir->filename().string()
                                           : fmt::format("{}-{}", run.rig_name, run.start_epoch_ns);
  io::console::ConsoleFeed feed =
      console_feed(*run.rig, {.rig = run.rig_name,
                              .run_id = run_id,
                              .speed = r.clock.speed,
                              .start_epoch_ns = run.start_epoch_ns,
                              .scenario = run.scenario ? &*run.scenario : nullptr,
                              .recording = run.recording.get(),
                              .judge = run.judge ? &run.judge->judge() : nullptr,
                              .faults = run.faults.get()});
  if (run.driver) {
    feed.drive = [driver = run.driver.get()](const io::console::Drive& d) {
      return driver->drive(d);
    };
  }
  if (run.commands) {
    feed.submit = console_commands(*run.commands);
    if (run.rig->diag_tester() != nullptr)
      feed.uds_replies = run.rig->table().find("diag.tester.replies");
  }
  if (r.clock.paused) feed.lock_step = lock_step_feed(run.gate);
  return feed;
}

}  // namespace hil::session
