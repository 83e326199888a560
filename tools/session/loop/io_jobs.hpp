#pragma once
// A run's periodic non-RT work (DESIGN.md §3, docs/architecture.md "Threads"): the text logs
// drained and synced, applied commands taken, systemd told how the run goes — each a timer on
// one Boost.Asio io_context instead of a thread of its own that sleeps. The context is the
// console's when the run has one (its thread serves both), else one of its own on a thread
// named hilsim-io.
//
// Thread-safety: every() and stop() from the thread that owns the run (not a job); the jobs
// run one at a time on the I/O thread.

#include <chrono>
#include <functional>
#include <memory>

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace hil::session {

class IoJobs {
 public:
  /// On `shared` (which must outlive this and be run by a thread of its owner), or, when
  /// nullptr, on an io_context and a thread of its own.
  explicit IoJobs(boost::asio::io_context* shared = nullptr);
  ~IoJobs();  // stop()
  IoJobs(const IoJobs&) = delete;
  IoJobs& operator=(const IoJobs&) = delete;

  /// Runs `job` every `period` on the I/O thread, the first time one period from now, until
  /// stop(). Not after stop().
  void every(std::chrono::milliseconds period, std::function<void()> job);
  /// No job runs after it returns: the timers are cancelled and a job running now finished
  /// (the caller may then do the jobs' last round itself). Idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hil::session
