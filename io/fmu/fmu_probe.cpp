#include "io/fmu/fmu_probe.hpp"

#include <ctime>

#include <algorithm>
#include <vector>

#include "io/fmu/fmu.hpp"
#include "io/fmu/malloc_count.hpp"

namespace hil::io::fmu {
namespace {

std::int64_t now_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

ProbeResult probe_fmu(Fmu& copy, const ProbeInputs& in, double step_s, int steps) {
  std::vector<double> outputs(in.output_refs.size());
  std::vector<std::int64_t> times;
  times.reserve(static_cast<std::size_t>(steps));
  ProbeResult r;
  (void)copy.do_step(0.0, step_s);  // the first step may set things up: not counted
  const std::optional<std::uint64_t> before = thread_malloc_count();
  for (int k = 1; k <= steps; ++k) {
    const std::int64_t t0 = now_ns();
    int status = in.input_refs.empty()
                     ? 0
                     : copy.set_as_double(in.input_types, in.input_refs, in.input_values);
    if (status <= 1) status = copy.do_step(k * step_s, step_s);
    if (status <= 1 && !outputs.empty()) {
      status = copy.get_as_double(in.output_types, in.output_refs, outputs);
    }
    times.push_back(now_ns() - t0);
    ++r.steps;
    if (status > 1) {
      r.failed = true;
      break;
    }
    if (copy.end_of_step().terminate) break;  // the FMU ended the simulation
  }
  const std::optional<std::uint64_t> after = thread_malloc_count();
  if (before && after) r.allocations = *after - *before;
  std::ranges::sort(times);
  if (!times.empty()) {
    r.median_step_ns = times[times.size() / 2];
    r.max_step_ns = times.back();
  }
  return r;
}

}  // namespace hil::io::fmu
