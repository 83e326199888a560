#pragma once
// Before an FMU runs in the loop, a probe steps a separate copy of it (opened by the caller
// from the same file: its own unpacked files and loaded binary, so the run's instance is
// untouched; initialised as the run's is) `steps` times with the run's inputs, counting the
// heap allocations its calls make (malloc_count.hpp) and timing each step — what decides
// whether it may run on the RT thread. A step where the FMU ends the simulation ends the probe
// (not a failure). Setup phase.
// Thread-safety: a function of its arguments.

#include <cstdint>
#include <optional>
#include <span>

#include "io/fmu/model_description.hpp"

namespace hil::io::fmu {

struct ProbeResult {
  int steps = 0;                             ///< steps made (fewer when one failed)
  std::optional<std::uint64_t> allocations;  ///< in set/doStep/get; nullopt: not countable here
  std::int64_t median_step_ns = 0;
  std::int64_t max_step_ns = 0;
  bool failed = false;  ///< a call returned error or fatal
};

struct ProbeInputs {
  std::span<const std::uint32_t> input_refs;
  std::span<const double> input_values;
  std::span<const std::uint32_t> output_refs;
  std::span<const ValueType> input_types;   ///< empty: all float64
  std::span<const ValueType> output_types;  ///< empty: all float64
};

class Fmu;

/// Steps `copy` (initialised, not yet stepped) from t = 0.
[[nodiscard]] ProbeResult probe_fmu(Fmu& copy, const ProbeInputs& in, double step_s, int steps);

}  // namespace hil::io::fmu
