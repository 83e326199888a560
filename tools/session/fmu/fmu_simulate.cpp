#include "tools/session/fmu/fmu_simulate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tools/session/fmu/fmu_input.hpp"
#include "tools/session/fmu/fmu_run_parts.hpp"
#include "tools/session/fmu/fmu_simulate_me.hpp"

namespace hil::session {
namespace {

namespace fmu = io::fmu;

/// Throws on a status above warning, naming the call and the time.
struct StatusCheck {
  int worst = 0;
  void operator()(int status, double t, std::string_view call) {
    worst = std::max(worst, status);
    if (status > 1) {
      throw fmu::FmuError(fmt::format("{} at t = {} s failed with status {} ({})", call, t, status,
                                      status == 2   ? "discard"
                                      : status == 3 ? "error"
                                                    : "fatal"));
    }
  }
};

}  // namespace

FmuSimulation simulate_fmu(fmu::Fmu& f, const FmuSimulateSpec& o) {
  if (f.model_exchange() != nullptr) return simulate_model_exchange(f, o);
  if (o.solver) {
    throw fmu::FmuError(fmt::format("--solver: {} runs by co-simulation (its own solver)",
                                    f.description().model_name));
  }
  return simulate_co_simulation(f, o);
}

// The loop of fmusim's FMI2CSSimulate/FMI3CSSimulate (modelica/Reference-FMUs): a communication
// point at every step, output point and input event; inputs applied at each step's start (after
// events there); the end the FMU asks for ends it.
FmuSimulation simulate_co_simulation(fmu::Fmu& f, const FmuSimulateSpec& o) {
  const fmu::ModelDescription& md = f.description();
  const FmuExperiment e = resolve_experiment(md, o);
  FmuStartValues sets = start_values(md, o);
  FmuInput inputs = o.input_csv ? FmuInput(*o.input_csv, md) : FmuInput();
  FmuRecorder recorder(md, sets.structural_sizes);
  FmuSimulation result;
  StatusCheck check;

  fmu::InstantiateSpec options{.stop_time = e.stop,
                               .tolerance = e.tolerance,
                               .early_return_allowed = o.early_return_allowed,
                               .configure = {}};
  if (sets.structural.size() != 0) {
    options.configure = [&] {
      check(sets.structural.set(f), e.start, "setting a structural parameter");
    };
  }
  f.instantiate(md.model_name, e.start, options);
  check(sets.values.set(f), e.start, "setting a value");
  check(inputs.apply(f, e.start), e.start, "setting the inputs");
  f.exit_initialization();
  check(recorder.record(f, e.start), e.start, "reading the outputs");

  double time = e.start;
  std::size_t n_out = 0;   // output points passed
  std::size_t n_step = 0;  // regular communication points passed
  while (!(time >= e.stop || fmi_close(time, e.stop))) {
    const double next_output = e.start + static_cast<double>(n_out + 1) * e.output_interval;
    const double next_step = e.start + static_cast<double>(n_step + 1) * e.step;
    double next = std::min(next_output, next_step);
    const double event = inputs.next_event(time);
    const bool input_event = event < next && !fmi_close(next, event);
    if (input_event) next = event;
    if (next > e.stop && !fmi_close(next, e.stop)) {
      if (!md.can_handle_variable_step) break;  // fmusim: a shorter last step only if it may
      next = e.stop;
    }
    check(inputs.apply(f, time), time, "setting the inputs");
    check(f.do_step(time, next - time), time, "doStep");
    ++result.steps;
    const fmu::StepEnd& end = f.end_of_step();
    const bool stopped_early = (end.terminate || end.early_return) &&
                               end.last_successful_time < next &&
                               !fmi_close(end.last_successful_time, next);
    time = stopped_early ? end.last_successful_time : next;
    const bool at_output = fmi_close(time, next_output);
    if (at_output) {
      time = next_output;  // a row's time is the output point's, start + k·interval (fmusim)
      ++n_out;
    }
    if (fmi_close(time, next_step)) ++n_step;
    if (at_output || input_event || end.terminate || end.early_return || fmi_close(time, e.stop)) {
      check(recorder.record(f, time), time, "reading the outputs");
    }
    if (end.terminate) {
      result.terminated_at = time;
      break;
    }
  }
  f.terminate();
  result.worst_status = check.worst;
  result.csv = recorder.take();
  return result;
}

}  // namespace hil::session
