#pragma once
// `hilsim fmu simulate`: an FMU run on its own in virtual time, as the reference FMU tools'
// simulators do: start, stop and step from the options or the model description's default
// experiment; parameters and inputs set by name (--set NAME=VALUE) before initialisation ends;
// inputs from a CSV (time column first, then inputs by name; linear between rows, held before
// the first and after the last); the outputs at every communication point as CSV (time, then
// the outputs in model-description order), numbers printed to round-trip.
// Thread-safety: a function of its arguments.

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/fmu/fmu.hpp"

namespace hil::session {

struct FmuSimulateSpec {
  std::optional<double> start_time;
  std::optional<double> stop_time;
  std::optional<double> step;
  std::vector<std::pair<std::string, std::string>> set;  ///< NAME, VALUE
  std::optional<std::filesystem::path> input_csv;
};

struct FmuSimulation {
  std::string csv;
  std::size_t steps = 0;
  int worst_status = 0;  ///< of the FMU's calls: 0 OK, 1 warning
};

/// Runs `fmu`. Throws io::fmu::FmuError: an unknown variable (with the closest name), a value
/// that is no number, a variable that is not a real, a bad input CSV (file:line), a step that
/// fails (its time and status).
[[nodiscard]] FmuSimulation simulate_fmu(io::fmu::Fmu& fmu, const FmuSimulateSpec& options);

/// `hilsim fmu info`: the model description as text.
[[nodiscard]] std::string describe_fmu(const io::fmu::Fmu& fmu);

}  // namespace hil::session
