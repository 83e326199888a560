#pragma once
// A sweep plan (config/sweep/sweep.proto) read, checked and expanded into variants: scenarios ×
// grid points × Monte Carlo samples × repetitions. Variant i is computed from the plan and i
// alone — its parameters, its draws and its seed — so any machine, engine or chunking runs the
// same variant for the same index. Every varied field and value is checked against the rig at
// load time (each grid value, each distribution's bounds), with errors located in the plan.
// Setup phase (allocates, reads files). Thread-safety: a loaded plan is immutable; its const
// methods are safe from any thread.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/text/config_error.hpp"

namespace hil::config {

class Sweep;  // config/sweep/sweep.proto
struct SweepLoad;

/// A varied field and its value in a variant: `value` as the overlay and the CSV write it.
struct Parameter {
  std::string field;
  std::string value;
};

struct Variant {
  std::size_t index = 0;
  std::string scenario;  ///< as `hilsim run --scenario` takes it; "" the rig's default
  std::size_t grid_point = 0;
  std::size_t sample = 0;
  std::size_t repetition = 0;
  std::uint64_t seed = 0;             ///< from the master seed and the index only
  std::vector<Parameter> parameters;  ///< grid fields, then random fields, then vehicle.seed
  std::string overlay;                ///< the rig overlay that sets them (Protobuf text)
};

class SweepPlan {
 public:
  [[nodiscard]] const std::filesystem::path& file() const noexcept { return file_; }
  /// The plan file's stem: "lane_change_friction".
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// As `hilsim run --rig` takes it: a name, or an absolute file path.
  [[nodiscard]] const std::string& rig() const noexcept { return rig_; }
  /// Simulated time of every run [s]; nullopt: each scenario's duration.
  [[nodiscard]] const std::optional<double>& duration_s() const noexcept { return duration_s_; }
  [[nodiscard]] std::size_t repetitions() const noexcept { return repetitions_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t per_task() const noexcept { return per_task_; }
  /// Array tasks of per_task() variants (the last may hold fewer).
  [[nodiscard]] std::size_t tasks() const noexcept { return (size_ + per_task_ - 1) / per_task_; }
  [[nodiscard]] double timeout_s() const noexcept { return timeout_s_; }
  /// The parameter columns, in the order variants list them.
  [[nodiscard]] const std::vector<std::string>& fields() const noexcept { return fields_; }
  /// Variant `index` (< size()).
  [[nodiscard]] Variant variant(std::size_t index) const;

 private:
  friend SweepLoad load_sweep(const std::filesystem::path& file);

  std::filesystem::path file_;
  std::string name_;
  std::string rig_;
  std::shared_ptr<const Sweep> message_;  // the plan file as parsed (grid, distributions)
  std::optional<double> duration_s_;
  std::vector<std::string> scenarios_;                 // "" = the rig's default
  std::vector<std::vector<std::string>> grid_values_;  // per dimension, as text
  std::size_t grid_points_ = 1;
  std::size_t samples_ = 1;
  std::size_t repetitions_ = 1;
  std::size_t size_ = 0;
  std::size_t per_task_ = 4;
  double timeout_s_ = 600.0;
  std::vector<std::string> fields_;
};

struct SweepLoad {
  std::optional<SweepPlan> plan;
  ConfigErrors errors;
  [[nodiscard]] bool ok() const noexcept { return plan.has_value(); }
};

/// Reads and checks the plan: syntax, the rig and scenarios (found and loading), each field
/// (known, a number/text field outside any list, with did-you-mean), each value (the rig with
/// it loads: ranges and rules), empty ranges, counts. Never throws for bad input.
[[nodiscard]] SweepLoad load_sweep(const std::filesystem::path& file);

}  // namespace hil::config
