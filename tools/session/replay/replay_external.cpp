// `hilsim replay LOG --rig NAME`: a CAN log from a real vehicle (candump, ASC or BLF) replayed into
// a rig — the recipe's sources are the log (recipe.hpp ExternalLog). Each frame applies at the
// tick its time since the log's first frame falls into; nothing is compared; the outputs are
// recorded in a run directory for inspection. As fast as --speed says.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tools/session/replay/replay_compare.hpp"
#include "tools/session/run/run_directory.hpp"
#include "tools/session/run_builder.hpp"

namespace hil::session {

int replay_external_log(const ReplaySpec& o) {
  const std::unique_ptr<Run> run = RunBuilder(replay_recipe(o)).build();
  if (!run) return 2;
  const std::int64_t period_ns = run->recorded.period_ns;
  const std::int64_t last =
      o.until ? *rt::parse_duration(*o.until) / period_ns : run->can_log.last_tick;
  (void)run->run_until(last + 1);
  run->harness->finish("replayed");
  run->stop_jobs();
  run->recording->stop();
  const runtime::RecordingCounters counters = run->recording->counters();
  write_json(*run->run_dir, "manifest.json",
             {{"hilsim_version", hilsim_version()},
              {"git_revision", git_revision()},
              {"rig", run->rig_name},
              {"replayed_log", o.source},
              {"period_ns", period_ns},
              {"start_epoch_ns", run->start_epoch_ns},
              {"ended", "completed"},
              {"ticks", last + 1},
              {"recording",
               {{"telemetry_samples", counters.telemetry.samples_recorded},
                {"can_frames", counters.can_log.frames_written}}}});
  fmt::print("replayed {} frames of {} into {} over {} ticks ({:.3f} s); outputs in {}\n",
             run->can_log.frames, o.source, run->rig_name, last + 1,
             static_cast<double>((last + 1) * period_ns) * 1e-9, run->run_dir->string());
  return 0;
}

}  // namespace hil::session
