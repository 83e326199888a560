#pragma once
// A sweep's worker: the process that runs a slice of a plan's variants — `hilsim sweep run`,
// one Slurm array task, one Kubernetes pod — as a fork server. Once, before the first variant,
// it warms up: it runs the first variant's recipe for a few ticks into a scratch directory
// (output discarded, the directory removed), so that what every run does once per process —
// the dynamic linker's symbol bindings, protobuf's descriptor pools and the telemetry and
// scene schemas built from them, the allocator's arenas and thresholds, function-local
// statics — is done in the worker and inherited by every child. Then it forks one child per
// variant (forked, not a new program), which builds its run from its own overlay — the rig,
// DBC and scenario files parsed anew, so that a variant can change any of them — runs it and
// exits: a variant that crashes or hangs costs only its own child (reported; the others go
// on), and no variant sees what another one did. The worker waits for its children on a
// self-pipe that SIGCHLD (and a stop signal) writes to, not a polling period: the next
// variant starts as soon as the last one ended.
// Setup-phase code: forks, allocates, changes signal dispositions. Thread-safety: one worker
// per process, used from its only thread.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>

#include "tools/session/run/run_session.hpp"

namespace hil::sweep {

/// What runs a variant (in the child) or the warm-up (in the worker): `hilsim run`'s
/// session::run_rig, or a stand-in in tests. Returns the run's exit status.
using VariantRun = std::function<int(const session::RunSpec&)>;

/// Runs `run` with `spec` for `duration` into `scratch` (removed afterwards), its stdout and
/// stderr discarded, exceptions swallowed: a warm-up that fails leaves the worker cold, not
/// broken (the variants then say why themselves). True when it returned 0.
bool warm_up(const VariantRun& run, session::RunSpec spec, const std::filesystem::path& scratch,
             const std::string& duration = "20ms");

/// A child of its own (its own process group: a stop reaches it and whatever it starts) that
/// runs `run` with `spec` and _exits with its status, its stdout and stderr in `log`.
[[nodiscard]] pid_t fork_variant(const VariantRun& run, const session::RunSpec& spec,
                                 const std::filesystem::path& log);

/// SIGCHLD and stop signals as readable bytes on a pipe: wait() returns when a child may have
/// ended, a stop signal came, or `at_most` passed. Installs its SIGCHLD handler for its
/// lifetime and restores the previous one.
class ChildWatch {
 public:
  ChildWatch();
  ~ChildWatch();
  ChildWatch(const ChildWatch&) = delete;
  ChildWatch& operator=(const ChildWatch&) = delete;
  ChildWatch(ChildWatch&&) = delete;
  ChildWatch& operator=(ChildWatch&&) = delete;

  /// Blocks until a wake-up or `at_most`; drains the pipe.
  static void wait(std::chrono::steady_clock::duration at_most);
  /// Wakes wait(): async-signal-safe (a stop signal's handler calls it).
  static void wake() noexcept;
};

}  // namespace hil::sweep
