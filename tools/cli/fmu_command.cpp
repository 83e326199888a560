#include "tools/cli/fmu_command.hpp"

#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "tools/session/fmu/fmu_simulate.hpp"
#include "tools/session/fmu/fmu_simulate_me.hpp"

namespace hil::cli {
namespace {

struct FmuCommandSpec {
  std::string file;
  std::optional<double> start_time;
  std::optional<double> stop_time;
  std::optional<double> step;
  std::optional<double> output_interval;
  bool early_return = false;
  std::vector<std::string> set;
  std::string input;
  std::string output;
  std::string solver;  ///< model exchange: euler, rk4
};

void run_info(const FmuCommandSpec& o) {
  const auto fmu = io::fmu::Fmu::load(o.file);
  fmt::print("{}", session::describe_fmu(*fmu));
}

void run_simulate(const FmuCommandSpec& o) {
  session::FmuSimulateSpec s{.start_time = o.start_time,
                             .stop_time = o.stop_time,
                             .step = o.step,
                             .output_interval = o.output_interval};
  s.early_return_allowed = o.early_return;
  for (const std::string& a : o.set) {
    const std::size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw CLI::ValidationError("--set", fmt::format("'{}': expected NAME=VALUE", a));
    }
    s.set.emplace_back(a.substr(0, eq), a.substr(eq + 1));
  }
  if (!o.input.empty()) s.input_csv = o.input;
  if (!o.solver.empty()) s.solver = session::parse_solver(o.solver);
  // --solver runs an FMU that has both interfaces by model exchange
  const auto fmu = io::fmu::Fmu::load(o.file, s.solver.has_value());
  const session::FmuSimulation r = session::simulate_fmu(*fmu, s);
  if (o.output.empty() || o.output == "-") {
    fmt::print("{}", r.csv);
    return;
  }
  std::ofstream out(o.output, std::ios::trunc);
  out << r.csv;
  if (!out) throw std::runtime_error(fmt::format("cannot write '{}'", o.output));
  fmt::print(stderr, "{}: {} steps, outputs in {}{}\n", o.file, r.steps, o.output,
             r.terminated_at
                 ? fmt::format("; the FMU ended the simulation at {} s", *r.terminated_at)
                 : "");
}

/// An FmuError is bad input: printed, exit 2.
template <typename F>
void guarded(F f) {
  try {
    f();
  } catch (const io::fmu::FmuError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    throw CLI::RuntimeError(2);
  }
}

}  // namespace

void add_fmu_command(CLI::App& app) {
  auto o = std::make_shared<FmuCommandSpec>();
  CLI::App* cmd = app.add_subcommand("fmu", "Inspect and run FMUs (FMI 2.0 and 3.0 co-simulation)");
  cmd->require_subcommand(1);
  cmd->footer("Guide: docs/fmu.md.\n");

  CLI::App* info =
      cmd->add_subcommand("info", "Variables, capabilities, default experiment, platforms");
  info->add_option("FILE", o->file, "The FMU (.fmu)")->required();
  info->footer("\nExample:\n  hilsim fmu info battery.fmu\n");
  info->callback([o] { guarded([&] { run_info(*o); }); });

  CLI::App* sim =
      cmd->add_subcommand("simulate", "Run an FMU alone in virtual time; outputs as CSV");
  sim->add_option("FILE", o->file, "The FMU (.fmu)")->required();
  sim->add_option("--start-time", o->start_time, "[s] (default: the default experiment's, or 0)");
  sim->add_option("--stop-time", o->stop_time,
                  "[s] (default: the default experiment's, or start + 1)");
  sim->add_option(
      "--step", o->step,
      "Communication step [s] (default: the default experiment's, or (stop − start)/500)");
  sim->add_option("--output-interval", o->output_interval,
                  "A row every this many seconds from start to stop [s] (default: --step, else "
                  "the default experiment's step, or (stop − start)/500)");
  sim->add_flag("--early-return", o->early_return,
                "FMI 3 co-simulation: let the FMU return early from a step (a row where it did)");
  sim->add_option("--set", o->set, "A parameter or input before initialisation ends; repeatable")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  sim->add_option("--input", o->input, "Inputs by time: time,<input>,… (linear between rows)")
      ->type_name("CSV");
  sim->add_option("--output", o->output, "Where the outputs go (default: stdout)")
      ->type_name("CSV");
  sim->add_option("--solver", o->solver,
                  "Model exchange: euler or rk4 at the fixed step --step (default rk4; an FMU "
                  "with both interfaces then runs by model exchange)")
      ->type_name("euler|rk4");
  sim->footer(
      "\nPrints \"time\",\"<output>\",… (the reference results' CSV) at every output interval\n"
      "from start to stop, at input events and where the FMU ends the simulation.\n"
      "Exit status: 0 done; 2 a bad FMU, option or input, or a step that failed.\n"
      "\nExamples:\n"
      "  hilsim fmu simulate first_order.fmu --stop-time 2 --step 0.01 --set T=0.25\n"
      "  hilsim fmu simulate battery.fmu --input current.csv --output soc.csv\n");
  sim->callback([o] { guarded([&] { run_simulate(*o); }); });
}

}  // namespace hil::cli
