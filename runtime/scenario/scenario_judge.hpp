#pragma once
// The scenario's pass criteria (config/scenario/scenario.proto "gates") evaluated on a stream of
// observations of the vehicle: each observe() updates every gate's running figures (worst
// lane margin, longest time in the speed band, largest rollback…) without allocating; the
// verdict is read when the run is over. The rig side feeds it the model's own pose and
// speed and the DTC statuses its UDS tester read; the stand-alone ECU what it receives and
// its own fault memory (docs/ecu.md "Gates"). The judge knows no channels: the DTC statuses
// come aligned with dtc_codes().
//
// Thread-safety: observe() on one (RT) thread; verdict() after that thread is done with it
// (or from the same thread); live() from any thread at any time.

#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "config/scenario/scenario_spec.hpp"
#include "runtime/scenario/course_frame.hpp"
#include "runtime/scenario/course_path.hpp"

namespace hil::runtime {

/// The vehicle at one instant, world frame.
struct Observation {
  double time = 0.0;  ///< scenario time [s]
  double x = 0.0;     ///< CG [m]
  double y = 0.0;
  double yaw = 0.0;    ///< [rad]
  double speed = 0.0;  ///< forward [m/s]
  /// statusOfDTC (0–255) of each of dtc_codes(), in its order; < 0 or NaN: unknown (not
  /// read yet). Missing entries count as unknown.
  std::span<const double> dtc_status;
  /// Soft soil (not_bogged_down gates): the deepest wheel sinkage [m] and the wheels' mean
  /// slip (+ driving) [-]; NaN: unknown (the stand-alone ECU's judge).
  double sinkage = std::numeric_limits<double>::quiet_NaN();
  double slip = std::numeric_limits<double>::quiet_NaN();
};

struct GateResult {
  std::string name;
  std::string kind;  ///< "lane", "speed_reached", …
  bool passed = false;
  std::string detail;  ///< the measured figure and what was required
  /// The gate's figure as a number (NaN when there is none yet), in `unit`: lane the smallest
  /// clearance (negative: outside), speed_reached the time it held from, no_rollback the
  /// largest rollback, max_deviation the largest deviation, distance_reached the distance
  /// covered, stopped the largest speed, dtc the time the status first showed it (`stays`:
  /// first did not), not_bogged_down the deepest sinkage. For tables (`hilsim sweep collect`).
  double value = std::numeric_limits<double>::quiet_NaN();
  std::string unit;
  /// false when the run ended before the gate could be decided (a run cut short with
  /// --duration): its `passed` is then no verdict.
  bool reached = true;
};

struct ScenarioVerdict {
  bool passed = false;          ///< every gate passed (a scenario without gates passes)
  double observed_until = 0.0;  ///< time of the last observation [s]
  std::vector<GateResult> gates;
};

/// A gate decided while the run goes on: passed (the speed held, the distance reached) or
/// failed (the lane left, the deviation or rollback exceeded). Other verdicts come at the end.
struct LiveMark {
  enum class State : std::int8_t { open, passed, failed };
  State state = State::open;
  double time = 0.0;  ///< scenario time of the decision [s]
};

class ScenarioJudge {
 public:
  /// Setup: copies the gates and sizes their state.
  explicit ScenarioJudge(const config::ScenarioSpec& scenario);

  /// The distinct codes of the dtc gates, in gate order: what Observation::dtc_status holds.
  /// Any thread (fixed at construction).
  [[nodiscard]] std::span<const std::uint32_t> dtc_codes() const noexcept { return dtc_codes_; }

  /// RT: one observation; times must not decrease.
  void observe(const Observation& o) noexcept;

  /// The verdict on what was observed so far (a gate whose window has not been observed
  /// in full fails, saying so). Allocates.
  [[nodiscard]] ScenarioVerdict verdict() const;
  /// Any thread: gate `i`'s live mark (names as in the scenario's gates).
  [[nodiscard]] LiveMark live(std::size_t i) const noexcept;
  /// Any thread (fixed at construction): the number of gates and their names.
  [[nodiscard]] std::size_t gate_count() const noexcept { return gates_.size(); }
  [[nodiscard]] const std::string& gate_name(std::size_t i) const { return gates_[i].name; }

 private:
  /// A window counts as observed to its end when the last observation is this close to it:
  /// the last tick of a run is one period before its duration [s].
  static constexpr double kTimeSlack = 0.1;

  struct GateState {
    // lane: smallest distance of a corner inside the lane (< 0: outside), where; the rearmost
    // corner's x last observed; whole footprint past x_max once (the section decided)
    double worst_margin = 1e9, worst_x = 0.0, rear_x = 0.0;
    bool left = false;
    std::int64_t samples = 0;  ///< observations that counted for the gate
    // speed_reached: since when in the band (a hold that counts: started by by_s); best
    // |error| and when; the time it passed; any stay in the band: since, the longest, from when
    double in_band_since = -1.0, best_error = 1e9, best_error_at = 0.0, passed_at = -1.0;
    double band_since = -1.0, longest_hold = -1.0, longest_hold_from = 0.0;
    // no_rollback / distance_reached / max_deviation / stopped: the figure
    double peak = -1e9, figure = 0.0, figure_at = 0.0;
    // dtc: its entry in dtc_codes(); when it decided (showed it; `stays`: did not show it)
    // and the status then, or at the last observation in the window (figure_at) while not
    std::size_t dtc = 0;
    double dtc_at = -1.0, dtc_status = std::numeric_limits<double>::quiet_NaN();
    bool marked = false;  ///< its live mark is set
    // not_bogged_down: since when stuck (slow and spinning); when it bogged down (or sank too
    // deep) and the sinkage, slip and speed then; the slip at the deepest sinkage (`figure`)
    double stuck_since = -1.0, bogged_at = -1.0, bog_sinkage = 0.0, bog_slip = 0.0;
    double bog_speed = 0.0, slip_at_deepest = 0.0;
    bool too_deep = false;
  };
  /// Written once by the RT thread (time, then state with release), read by any.
  struct LiveSlot {
    std::atomic<LiveMark::State> state{LiveMark::State::open};
    std::atomic<double> time{0.0};
  };
  void mark(GateState& g, std::size_t i, LiveMark::State state, double time) noexcept;

  void observe_gate(std::size_t i, GateState& g, const Observation& o,
                    const CoursePose& pose) noexcept;
  void observe_dtc(std::size_t i, GateState& g, const config::DtcGate& d,
                   const Observation& o) noexcept;
  void observe_bog(std::size_t i, GateState& g, const config::NotBoggedDownGate& b,
                   const Observation& o) noexcept;
  [[nodiscard]] GateResult judge(const config::GateSpec& gate, const GateState& g) const;
  /// A dtc gate's verdict (name and kind set by judge()).
  void judge_dtc(const config::DtcGate& d, const GateState& g, GateResult& r) const;
  /// A not_bogged_down gate's verdict (name and kind set by judge()).
  static void judge_bog(const config::NotBoggedDownGate& b, const GateState& g, GateResult& r);
  /// Why a speed_reached gate failed: the longest hold and where, or how close it came.
  [[nodiscard]] static std::string failed_hold(const config::SpeedReachedGate& s,
                                               const GateState& g);

  std::vector<config::GateSpec> gates_;
  std::vector<std::uint32_t> dtc_codes_;
  config::Footprint footprint_;
  CourseFrame frame_;
  CoursePath path_;
  std::size_t hint_ = 0;
  bool located_ = false;
  double last_time_ = 0.0;
  std::vector<GateState> state_;
  std::unique_ptr<LiveSlot[]> live_;
  std::array<config::CoursePoint, 4> corners_{};  ///< of the footprint, this observation
};

}  // namespace hil::runtime
