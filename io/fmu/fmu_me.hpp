#pragma once
// An FMU run by model exchange (FMI 2.0.4 §3, FMI 3.0 §3): hilsim is the integrator. A step
// from t to t + h (the rig's FMU period, or `fmu simulate`'s step) integrates the FMU's
// continuous states with a fixed-step explicit solver on its derivatives — classical RK4 (the
// rig's integrator, rt_core/rk4.hpp) or forward Euler — and then handles, at the end of the
// step, the events FMI defines:
// - time events: the FMU's nextEventTime (and the ticks of periodic input clocks) inside the
//   step split it, so they are hit exactly;
// - state events: an event indicator that changed its domain over the step (z > 0 ↔ z ≤ 0),
//   located within the step by bisection on the step's one-step solution to 1e-12 s (at most
//   60 halvings; EventLocation::bisection, the default: in a rig and in `fmu simulate`), or at
//   the end of the step in which it happened (EventLocation::step_end). The step keeps its
//   length: after a located event it goes on to its end;
// - step events: completedIntegratorStep asks for event mode.
// An event is event mode, the clocks due set, the event iteration (newDiscreteStates /
// fmi3UpdateDiscreteStates until no update is needed, at most 100 rounds), continuous-time
// mode, the states re-read when the FMU changed them (re-initialisation), and the indicators
// re-read. A request to terminate ends the integration: the FMU holds (terminated()).
// Explicit solvers have a stability bound: y' = −k·y is stable for k·h < 2.785 (RK4) and
// k·h < 2 (Euler); a step whose states are not finite fails (status 3, failure()).
// Setup: the constructor resolves the functions (throws FmuError) and sizes every buffer.
// RT: step() allocates nothing of ours and never throws. Thread-safety: one thread at a time.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "io/fmu/fmu_me_model.hpp"

namespace hil::io::fmu {

enum class MeSolver : std::uint8_t { euler, rk4 };
enum class EventLocation : std::uint8_t { step_end, bisection };

class ModelExchange {
 public:
  /// Resolves the model-exchange functions from the loaded binary `library`. Throws FmuError
  /// naming `file` and the missing function.
  ModelExchange(void* library, FmiVersion version, MeModel model, std::string file);
  ~ModelExchange();
  ModelExchange(const ModelExchange&) = delete;
  ModelExchange& operator=(const ModelExchange&) = delete;

  /// FMI 3: fmi3InstantiateModelExchange, for Fmu::instantiate (nullptr for FMI 2).
  [[nodiscard]] void* instantiate3() const noexcept;
  /// Setup: the instance the calls go to (instantiated by Fmu) and its start time.
  void bind(void* instance, double start_time) noexcept {
    instance_ = instance;
    t_ = start_time;
  }
  /// Setup: after exitInitializationMode (the FMU is in event mode): the initial event
  /// iteration (clocks due at the start ticked), continuous-time mode, the states and
  /// indicators read. Throws FmuError.
  void start();
  /// RT: integrates from the FMU's time to `time` + `step`; the status of the worst call (0 OK …
  /// 4 fatal; 3 also for states that are not finite and an event iteration that does not end).
  [[nodiscard]] int step(double time, double step) noexcept;

  void set_solver(MeSolver solver) noexcept { solver_ = solver; }
  void set_event_location(EventLocation location) noexcept { location_ = location; }
  [[nodiscard]] MeSolver solver() const noexcept { return solver_; }
  [[nodiscard]] const MeModel& model() const noexcept { return model_; }
  /// The FMU's time (the end of the last step).
  [[nodiscard]] double time() const noexcept { return t_; }
  /// The FMU asked to end the simulation (terminateSimulation), at terminated_at().
  [[nodiscard]] bool terminated() const noexcept { return terminated_; }
  [[nodiscard]] double terminated_at() const noexcept { return terminated_at_; }
  /// Why the last step failed (a static string), or "".
  [[nodiscard]] const char* failure() const noexcept { return failure_; }
  [[nodiscard]] std::span<const double> states() const noexcept { return x_; }

  struct Counts {
    std::uint64_t state_events = 0;
    std::uint64_t time_events = 0;
    std::uint64_t step_events = 0;
    std::uint64_t clock_ticks = 0;
    std::uint64_t substeps = 0;  ///< integrator steps (a step split by a time event counts 2)
  };
  [[nodiscard]] const Counts& counts() const noexcept { return counts_; }
  /// Times of the events handled since start (each state, time, step or clock event), for
  /// tests and `fmu simulate`; kept up to kMaxEventLog (setup reserves it: no allocation).
  static constexpr std::size_t kMaxEventLog = 4096;
  [[nodiscard]] const std::vector<double>& event_times() const noexcept { return event_times_; }

 private:
  struct Functions;
  /// f(t, x) into `dx`.
  int derivatives(double t, const std::vector<double>& x, std::vector<double>& dx) noexcept;
  /// One solver step of size h from (t0, x0) into `x`; leaves the FMU at (t0 + h, x).
  int integrate(double t0, const std::vector<double>& x0, double h,
                std::vector<double>& x) noexcept;
  [[nodiscard]] bool crossed(const std::vector<double>& z) const noexcept;
  /// Event mode at the FMU's current time: clocks due, iteration, continuous-time mode.
  int handle_event(bool clocks_due) noexcept;
  /// In event mode: the clocks due set, newDiscreteStates until done, continuous-time mode,
  /// the states re-read (when changed, or `read_states`), the indicators read.
  int event_iteration(bool clocks_due, bool read_states) noexcept;
  [[nodiscard]] double next_clock_time() const noexcept;
  int fail(const char* why) noexcept;

  std::unique_ptr<Functions> f_;
  FmiVersion version_;
  MeModel model_;
  std::string file_;
  void* instance_ = nullptr;
  MeSolver solver_ = MeSolver::rk4;
  EventLocation location_ = EventLocation::bisection;
  double t_ = 0.0;
  bool next_event_defined_ = false;
  double next_event_ = 0.0;
  bool terminated_ = false;
  double terminated_at_ = 0.0;
  const char* failure_ = "";
  std::vector<double> x_, x0_, xt_, k1_, k2_, k3_, k4_, z_pre_, z_;
  std::vector<std::uint64_t> clock_k_;     ///< the next tick of each clock: shift + k·interval
  std::vector<std::uint32_t> clock_refs_;  ///< due now (set in event mode)
  std::unique_ptr<bool[]> clock_on_;       ///< fmi3Clock values: all true
  Counts counts_;
  std::vector<double> event_times_;
};

}  // namespace hil::io::fmu
