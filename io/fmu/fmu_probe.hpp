#pragma once
// Before an FMU runs in the loop, a probe steps a separate copy of it (its own unpacked files,
// its own loaded binary, so the run's instance is untouched) `steps` times with the run's
// parameters and inputs, counting the heap allocations its calls make (malloc_count.hpp) and
// timing each step — what decides whether it may run on the RT thread. Setup phase.
// Thread-safety: a function of its arguments.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace hil::io::fmu {

struct ProbeResult {
  int steps = 0;                             ///< steps made (fewer when one failed)
  std::optional<std::uint64_t> allocations;  ///< in set/doStep/get; nullopt: not countable here
  std::int64_t median_step_ns = 0;
  std::int64_t max_step_ns = 0;
  bool failed = false;  ///< a call returned error or fatal
};

struct ProbeInputs {
  std::span<const std::uint32_t> parameter_refs;
  std::span<const double> parameter_values;
  std::span<const std::uint32_t> input_refs;
  std::span<const double> input_values;
  std::span<const std::uint32_t> output_refs;
};

/// Throws FmuError when the copy cannot be opened or initialised.
[[nodiscard]] ProbeResult probe_fmu(const std::filesystem::path& file, const ProbeInputs& in,
                                    double step_s, int steps);

}  // namespace hil::io::fmu
