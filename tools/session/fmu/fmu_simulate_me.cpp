#include "tools/session/fmu/fmu_simulate_me.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tools/session/fmu/fmu_input.hpp"
#include "tools/session/fmu/fmu_run_parts.hpp"

namespace hil::session {

namespace fmu = io::fmu;

FmuSimulation simulate_model_exchange(fmu::Fmu& f, const FmuSimulateSpec& o) {
  fmu::ModelExchange& me = *f.model_exchange();
  me.set_solver(o.solver.value_or(fmu::MeSolver::rk4));
  me.set_event_location(fmu::EventLocation::bisection);
  const fmu::ModelDescription& md = f.description();
  const FmuExperiment e = resolve_experiment(md, o);
  FmuStartValues sets = start_values(md, o);
  FmuInput inputs = o.input_csv ? FmuInput(*o.input_csv, md) : FmuInput();
  FmuRecorder recorder(md, sets.structural_sizes);
  FmuSimulation result;
  const auto check = [&](int status, double t, std::string_view call) {
    result.worst_status = std::max(result.worst_status, status);
    if (status > 1) {
      throw fmu::FmuError(fmt::format("{} at t = {} s failed with status {} ({}){}{}", call, t,
                                      status,
                                      status == 2   ? "discard"
                                      : status == 3 ? "error"
                                                    : "fatal",
                                      *me.failure() != '\0' ? ": " : "", me.failure()));
    }
  };
  if (sets.structural.size() != 0) {
    throw fmu::FmuError("--set: structural parameters of a model-exchange FMU are not supported");
  }
  f.instantiate(md.model_name, e.start,
                fmu::InstantiateSpec{.stop_time = e.stop, .tolerance = e.tolerance});
  check(sets.values.set(f), e.start, "setting a value");
  check(inputs.apply(f, e.start), e.start, "setting the inputs");
  f.exit_initialization();  // the initial event iteration (fmu_me.hpp)
  check(recorder.record(f, e.start), e.start, "reading the outputs");

  double time = e.start;
  std::size_t n_out = 0;
  std::size_t n_step = 0;
  while (!(time >= e.stop || fmi_close(time, e.stop)) && !me.terminated()) {
    const double next_output = e.start + static_cast<double>(n_out + 1) * e.output_interval;
    const double next_step = e.start + static_cast<double>(n_step + 1) * e.step;
    double next = std::min({next_output, next_step, e.stop});
    const double event = inputs.next_event(time);
    const bool input_event = event < next && !fmi_close(next, event);
    if (input_event) next = event;
    check(inputs.apply(f, time), time, "setting the inputs");
    check(f.do_step(time, next - time), time, "the step");
    ++result.steps;
    time = me.terminated() ? me.terminated_at() : next;
    const bool at_output = fmi_close(time, next_output);
    if (at_output) ++n_out;
    if (fmi_close(time, next_step)) ++n_step;
    if (at_output || input_event || me.terminated() || fmi_close(time, e.stop)) {
      check(recorder.record(f, time), time, "reading the outputs");
    }
  }
  if (me.terminated()) result.terminated_at = me.terminated_at();
  f.terminate();
  result.csv = recorder.take();
  return result;
}

fmu::MeSolver parse_solver(std::string_view name) {
  if (name == "euler") return fmu::MeSolver::euler;
  if (name == "rk4") return fmu::MeSolver::rk4;
  throw fmu::FmuError(fmt::format("--solver {}: expected euler or rk4", name));
}

}  // namespace hil::session
