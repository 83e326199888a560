#pragma once
// An FMU stepped on a thread of its own (VeriStand's parallel mode; docs/fmu.md "Real-time"),
// for an FMU that may not run on the RT thread (it allocates, or its steps are too slow).
//
// Steps are numbered from 1; step 0 is the initialisation. The RT thread hands step n its
// inputs and start time (hand()); the worker steps the FMU through the steps in order, each
// into its own slot of a ring of `depth` slots (inputs, outputs, status), and publishes the
// newest finished one (finished()). After a step in which the FMU ends the simulation, the
// later steps finish at once without stepping it (terminated()). The FMU's trajectory therefore
// depends only on the inputs handed and never on timing; what timing decides is which finished step
// the RT thread reads at a given tick, which the caller records (FmuStage, fmu.log) so a replay
// reads the same.
//
// Protocol: two counters, `handed` (written by the RT thread) and `finished` (by the worker),
// release/acquire; a slot is written by the RT thread only while no step it holds is pending
// (n − depth ≤ finished), read by the worker only between handed ≥ n and finished = n.
// The worker sleeps on `handed` (C++20 atomic wait); the RT thread never sleeps unless the
// caller asks it to (wait_for: runs not paced by real time, replays).
//
// Thread-safety: hand, finished, wait_for, outputs and status from one thread (the RT
// thread); the constructor and destructor in the setup phase. The destructor stops the
// worker; one stuck in the FMU for more than 2 s is left running detached (its FMU and files
// are then never released) with a warning, so a hung FMU cannot hang the end of a run.

#include <cstdint>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "io/fmu/fmu.hpp"

namespace hil::runtime {

class FmuWorker {
 public:
  /// Steps the worker may be behind before it is given up: 16 ms of steps at 4 kHz, above the
  /// hiccups of a worker at normal priority on a non-RT kernel (cyclictest max 1–3 ms here).
  static constexpr std::size_t kDefaultDepth = 64;
  /// Starts the worker thread on `fmu` (initialised, not stepped). `step_s`: each step's size.
  /// `input_types`, `output_types`: the variables' C types (empty: all float64; values are
  /// converted as Fmu::set_as_double does).
  FmuWorker(std::unique_ptr<io::fmu::Fmu> fmu, std::vector<std::uint32_t> input_refs,
            std::vector<std::uint32_t> output_refs, double step_s,
            std::size_t depth = kDefaultDepth, std::vector<io::fmu::ValueType> input_types = {},
            std::vector<io::fmu::ValueType> output_types = {});
  ~FmuWorker();
  FmuWorker(const FmuWorker&) = delete;
  FmuWorker& operator=(const FmuWorker&) = delete;

  /// RT: hands the next step its inputs and start time. False (nothing handed) when its
  /// slot still holds a step the worker has not finished: the FMU is `depth` steps behind.
  /// With `wait`, waits for that slot instead (a blocking wait: not for a real-time run).
  bool hand(std::span<const double> inputs, double time, bool wait) noexcept;
  /// RT: the newest finished step (0: none yet).
  [[nodiscard]] std::int64_t finished() const noexcept;
  /// RT: waits until step n has finished (blocking: not for a real-time run).
  void wait_for(std::int64_t n) const noexcept;
  /// RT: finished step n's outputs and status (0 OK … 4 fatal), valid while step n + depth
  /// has not been handed.
  [[nodiscard]] std::span<const double> outputs(std::int64_t n) const noexcept;
  [[nodiscard]] int status(std::int64_t n) const noexcept;
  /// RT: the step in which the FMU ended the simulation, as of finished step n (0: it has not;
  /// that step's outputs are its last), and the time it stopped at.
  [[nodiscard]] std::int64_t terminated_in(std::int64_t n) const noexcept;
  [[nodiscard]] double terminated_at(std::int64_t n) const noexcept;
  [[nodiscard]] std::size_t depth() const noexcept;

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;  ///< the worker thread's too: it outlives a detached thread
  std::thread thread_;
};

}  // namespace hil::runtime
