#pragma once
// The pieces of `hilsim fmu simulate` every interface shares (co-simulation here, model
// exchange beside it): the experiment as fmusim (modelica/Reference-FMUs) settles it — each
// of start, stop, output interval from the command line, else the model description's default
// experiment, else 0, 1 and (stop − start)/500; the tolerance from the default experiment —
// the start values of --set NAME=VALUE (any type; an array's values space-separated;
// structural parameters apart, for FMI 3's configuration mode), and the output CSV in the
// reference results' conventions: a header "time","<output>",… (an array's values
// "y[0]","y[1]",…), the time with 16 significant digits, the values to round-trip (integers
// exact, booleans 0/1, strings quoted). Setup (allocates, throws FmuError).
// Thread-safety: one thread at a time.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/fmu/fmu_values.hpp"
#include "tools/session/fmu/fmu_simulate.hpp"

namespace hil::session {

struct FmuExperiment {
  double start = 0.0;
  double stop = 1.0;
  double step = 0.0;             ///< communication step (co-simulation) or solver step (ME)
  double output_interval = 0.0;  ///< a row at every multiple of it from start
  std::optional<double> tolerance;
};

/// The experiment of `options` for `md`. Throws FmuError: stop not after start, a step or
/// interval not above 0, more than 10^8 steps.
[[nodiscard]] FmuExperiment resolve_experiment(const io::fmu::ModelDescription& md,
                                               const FmuSimulateSpec& options);

/// --set NAME=VALUE, checked against the model description.
struct FmuStartValues {
  /// structural parameters' values by value reference (the arrays' sizes follow them)
  std::map<std::uint32_t, std::uint64_t> structural_sizes;
  io::fmu::ValueSet structural;  ///< set in configuration mode (FMI 3)
  io::fmu::ValueSet values;      ///< parameters and inputs, set in initialisation mode
};

/// Throws FmuError: an unknown variable (with the closest name), a value that is no value of
/// its type, a variable that cannot be set (its causality, a constant).
[[nodiscard]] FmuStartValues start_values(const io::fmu::ModelDescription& md,
                                          const FmuSimulateSpec& options);

/// The outputs' rows.
class FmuRecorder {
 public:
  /// Every output of `md` except clocks, in model-description order; arrays at the sizes
  /// `structural` gives.
  FmuRecorder(const io::fmu::ModelDescription& md,
              const std::map<std::uint32_t, std::uint64_t>& structural);
  /// Reads the outputs and appends the row at `time`; the status of the reads.
  int record(io::fmu::Fmu& fmu, double time);
  [[nodiscard]] std::string take() { return std::move(csv_); }
  [[nodiscard]] std::size_t rows() const noexcept { return rows_; }

 private:
  io::fmu::ValueSet outputs_;
  std::string csv_;
  std::size_t rows_ = 0;
};

}  // namespace hil::session
