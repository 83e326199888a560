#include "tools/sweep/sweep_collect.hpp"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <vector>

#include "tools/session/export/csv.hpp"
#include "tools/sweep/sweep_runner.hpp"

namespace hil::sweep {
namespace {

namespace fs = std::filesystem;
using session::csv_field;

/// The file's JSON object; an empty object when it is missing or no JSON object.
nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return nlohmann::json::object();
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  return j.is_object() ? j : nlohmann::json::object();
}

std::string json_text(const nlohmann::json& j) {
  if (j.is_null()) return "";
  if (j.is_string()) return j.get<std::string>();
  if (j.is_number_float()) return fmt::format("{}", j.get<double>());
  return j.dump();
}

}  // namespace

std::string index_ranges(const std::vector<std::size_t>& sorted) {
  std::string out;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    out += fmt::format(
        "{}{}", out.empty() ? "" : ",",
        i == j ? fmt::format("{}", sorted[i]) : fmt::format("{}-{}", sorted[i], sorted[j]));
    i = j + 1;
  }
  return out;
}

Collected collect_sweep(const fs::path& out, const fs::path& csv_path) {
  const nlohmann::json plan = read_json(out / "plan.json");
  if (!plan.contains("variants")) {
    throw std::runtime_error(fmt::format(
        "'{}' has no plan.json: expected a sweep's directory (hilsim sweep run … --out DIR)",
        out.string()));
  }
  const std::vector<std::string> fields = plan.value("fields", std::vector<std::string>{});
  const std::size_t per_task = plan.value("per_task", std::size_t{1});
  struct Row {
    const nlohmann::json* variant;
    nlohmann::json sweep;
    nlohmann::json manifest;
    Status status = Status::missing;
  };
  std::vector<Row> rows;
  std::vector<std::string> gates;  // in order of first appearance
  for (const nlohmann::json& v : plan["variants"]) {
    Row r{.variant = &v};
    const fs::path dir = run_directory(out, v.value("index", std::size_t{0}));
    r.sweep = read_json(dir / "sweep.json");
    r.manifest = read_json(dir / "manifest.json");
    r.status = status_from(r.sweep.value("status", std::string()));
    if (r.manifest.contains("scenario_gates")) {
      for (const nlohmann::json& g : r.manifest["scenario_gates"]) {
        const std::string name = g.value("name", std::string());
        if (std::ranges::find(gates, name) == gates.end()) gates.push_back(name);
      }
    }
    rows.push_back(std::move(r));
  }

  Collected c;
  c.variants = rows.size();
  c.csv = csv_path.empty() ? out / "results.csv" : csv_path;
  std::string table = "index,scenario,repetition,sample,seed";
  for (const std::string& f : fields) table += "," + csv_field(f);
  table += ",status,exit_status,simulated_s";
  for (const std::string& g : gates) table += "," + csv_field("gate: " + g);
  table += ",run_dir\n";
  std::vector<std::size_t> rerun;
  std::string failing;
  for (const Row& r : rows) {
    const nlohmann::json& v = *r.variant;
    const std::size_t index = v.value("index", std::size_t{0});
    table += fmt::format("{},{},{},{},{}", index, csv_field(v.value("scenario", std::string())),
                         v.value("repetition", 0), v.value("sample", 0),
                         v.value("seed", std::uint64_t{0}));
    const nlohmann::json parameters = v.value("parameters", nlohmann::json::object());
    for (const std::string& f : fields) {
      table += "," + csv_field(parameters.contains(f) ? json_text(parameters[f]) : "");
    }
    const bool ran = r.status != Status::missing;
    table += fmt::format(",{},{},{}", to_string(r.status),
                         ran ? json_text(r.sweep.value("exit_status", nlohmann::json())) : "",
                         json_text(r.manifest.value("simulated_s", nlohmann::json())));
    std::map<std::string, std::string> values;
    if (r.manifest.contains("scenario_gates")) {
      for (const nlohmann::json& g : r.manifest["scenario_gates"]) {
        values[g.value("name", std::string())] = json_text(g.value("value", nlohmann::json()));
      }
    }
    for (const std::string& g : gates) table += "," + csv_field(values[g]);
    const std::string dir = fmt::format("runs/{:06}", index);
    table += "," + (ran ? dir : std::string()) + "\n";

    switch (r.status) {
      case Status::passed:
        ++c.passed;
        break;
      case Status::failed:
      case Status::error:
      case Status::crashed:
      case Status::timed_out: {
        if (r.status == Status::failed) {
          ++c.failed;
        } else {
          ++c.went_wrong;
          rerun.push_back(index);
        }
        std::string params;
        for (const std::string& f : fields) {
          if (parameters.contains(f)) params += fmt::format(" {}={}", f, json_text(parameters[f]));
        }
        std::string why = fmt::format("exit status {}",
                                      json_text(r.sweep.value("exit_status", nlohmann::json())));
        if (r.status == Status::timed_out) {
          why = fmt::format("after {} s", json_text(r.sweep.value("timeout_s", nlohmann::json())));
        } else if (r.sweep.value("signal", 0) != 0) {
          why = fmt::format("signal {}", r.sweep.value("signal", 0));
        }
        const std::string scenario = v.value("scenario", std::string());
        failing +=
            fmt::format("  {:06} {}{}: {} ({})\n    {}\n    replay: hilsim replay {}\n", index,
                        scenario.empty() ? "(default scenario)" : scenario, params,
                        to_string(r.status), why, (out / dir).string(), (out / dir).string());
        if (r.manifest.contains("scenario_gates")) {
          for (const nlohmann::json& g : r.manifest["scenario_gates"]) {
            if (g.value("result", std::string()) == "failed") {
              failing += fmt::format("    [FAIL] {}: {}\n", g.value("name", std::string()),
                                     g.value("detail", std::string()));
            }
          }
        }
        break;
      }
      case Status::missing:
        ++c.missing;
        rerun.push_back(index);
        break;
    }
  }
  {
    std::ofstream file(c.csv, std::ios::binary | std::ios::trunc);
    file << table;
    if (!file) throw std::runtime_error(fmt::format("cannot write '{}'", c.csv.string()));
  }
  c.summary = fmt::format(
      "sweep {}: {} variants: {} passed, {} failed, {} went wrong (error, crash, time-out), {} "
      "missing\n",
      plan.value("sweep", std::string()), c.variants, c.passed, c.failed, c.went_wrong, c.missing);
  if (!failing.empty()) c.summary += "not passed:\n" + failing;
  if (!rerun.empty()) {
    c.summary += fmt::format("to run again: hilsim sweep run {} --out {} --index {}\n",
                             plan.value("plan", std::string()), out.string(), index_ranges(rerun));
    if (fs::exists(out / "sweep.sbatch")) {  // submitted to Slurm: its array tasks again
      std::set<std::size_t> tasks;
      for (const std::size_t i : rerun) tasks.insert(i / std::max<std::size_t>(per_task, 1));
      c.summary += fmt::format("  under Slurm: sbatch --array={} {}\n",
                               index_ranges(std::vector<std::size_t>(tasks.begin(), tasks.end())),
                               (out / "sweep.sbatch").string());
    }
  }
  c.summary += fmt::format("table: {}\n", c.csv.string());
  c.exit_status = c.went_wrong + c.missing > 0 ? 1 : c.failed > 0 ? 4 : 0;
  return c;
}

}  // namespace hil::sweep
