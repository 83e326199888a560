#include "config/sweep/sweep_plan.hpp"

#include "config/sweep/sweep.pb.h"

#include <fmt/format.h>
#include <google/protobuf/text_format.h>

#include <cmath>
#include <limits>
#include <random>

#include "config/rig.pb.h"
#include "config/rig/loader.hpp"
#include "config/rig/rig_locator.hpp"
#include "config/scenario/scenario_spec.hpp"
#include "config/sweep/rig_field.hpp"
#include "config/text/source_map.hpp"
#include "config/text/suggest.hpp"
#include "config/text/text_file.hpp"
#include "config/text/text_layer.hpp"
#include "models/sensors/sensor_noise.hpp"

namespace hil::config {
namespace {

namespace pb = google::protobuf;

constexpr std::size_t kMaxVariants = 10'000'000;
constexpr std::size_t kMaxDraws = 1000;  // a truncated normal drawn again at most this often
constexpr double kDefaultTimeout = 600.0;
constexpr std::uint32_t kDefaultPerTask = 4;

/// A plan-relative file ("dir/x.pbtxt", "x.pbtxt") as an absolute path; a name as it is.
std::string resolve(const std::string& name, const std::filesystem::path& plan_dir) {
  const bool is_file = name.find('/') != std::string::npos || name.ends_with(".pbtxt");
  if (!is_file) return name;
  const std::filesystem::path p(name);
  return std::filesystem::absolute(p.is_absolute() ? p : plan_dir / p).lexically_normal().string();
}

/// The sample of a distribution for (seed, index, field): independent of every other draw.
double draw(const RandomDimension& r, std::uint64_t seed, std::size_t index) {
  models::GaussianNoise normal(models::derive_seed(seed, fmt::format("{}/{}", index, r.field())));
  std::mt19937_64 engine(models::derive_seed(seed, fmt::format("{}/{}/u", index, r.field())));
  if (r.has_uniform()) {
    const double u = static_cast<double>(engine() >> 11U) * 0x1.0p-53;  // [0, 1)
    return r.uniform().min() + u * (r.uniform().max() - r.uniform().min());
  }
  const RandomDimension::Normal& n = r.normal();
  const double low = n.has_min() ? n.min() : -std::numeric_limits<double>::infinity();
  const double high = n.has_max() ? n.max() : std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < kMaxDraws; ++k) {
    const double x = n.mean() + n.sigma() * normal.standard();
    if (x >= low && x <= high) return x;
  }
  return std::clamp(n.mean(), low, high);  // [min, max] far in a tail: its nearest point
}

class Checker {
 public:
  Checker(const config::SourceMap& sources, ConfigErrors& errors)
      : sources_(sources), errors_(errors) {
    known_ = scalar_field_paths(*RigConfig::descriptor());
  }

  void error(const std::string& at, std::string message) {
    errors_.push_back(sources_.error(at, std::move(message)));
  }

  /// The field of a dimension exists and is a scalar outside lists.
  bool field(const std::string& at, const std::string& path) {
    if (path.empty()) {
      error(at, "no field; expected the rig field to vary, e.g. field: \"vehicle.sprung.mass\"");
      return false;
    }
    RigConfig probe;
    if (const auto problem = set_field(probe, path, 0.0, "")) {
      if (problem->starts_with("no field")) {
        const auto near = config::closest_name(path, known_);
        error(at, fmt::format("{}{}", *problem,
                              near ? fmt::format("; did you mean \"{}\"?", *near) : ""));
        return false;
      }
      if (!problem->starts_with("expected")) {  // a list or a block: no value can fit
        error(at, *problem);
        return false;
      }
    }
    return true;
  }

  /// The rig with `field` set to the value loads; else the loader's complaint, located at `at`.
  void value(const std::string& at, const std::filesystem::path& rig, const std::string& path,
             const std::optional<double>& number, const std::string& text) {
    RigConfig overlay;
    if (const auto problem = set_field(overlay, path, number, text)) {
      error(at, fmt::format("{}: {}", path, *problem));
      return;
    }
    std::string overlay_text;
    pb::TextFormat::PrintToString(overlay, &overlay_text);
    config::FileText base = config::read_text_file(rig, config::kMaxConfigBytes);
    if (!base.error.empty()) return;  // reported once, for the rig
    const std::vector<config::ConfigText> layers{{rig.string(), std::move(base.text)},
                                                 {"(sweep value)", std::move(overlay_text)}};
    const config::LoadResult loaded = config::load_rig_config_text(layers);
    for (const config::ConfigError& e : loaded.errors) {
      error(at, fmt::format("{} = {}: {}", path, number ? number_text(*number) : text,
                            e.file == "(sweep value)" ? e.message : e.to_string()));
    }
  }

 private:
  const config::SourceMap& sources_;
  ConfigErrors& errors_;
  std::vector<std::string> known_;
};

}  // namespace

SweepLoad load_sweep(const std::filesystem::path& file) {
  SweepLoad result;
  config::FileText text = config::read_text_file(file, config::kMaxConfigBytes);
  if (!text.error.empty()) {
    result.errors.push_back({.file = file.string(), .message = std::move(text.error)});
    return result;
  }
  const config::ParsedLayer layer = config::parse_layer(
      {file.string(), std::move(text.text)}, Sweep::default_instance(), {}, result.errors);
  if (!result.errors.empty()) return result;
  const config::SourceMap sources(std::vector<const config::ParsedLayer*>{&layer});
  Checker check(sources, result.errors);
  SweepPlan plan;
  plan.file_ = file;
  plan.name_ = file.stem().string();
  plan.message_ = std::make_shared<const Sweep>(static_cast<const Sweep&>(layer.message()));
  const Sweep& m = *plan.message_;
  if (m.has_duration_s()) plan.duration_s_ = m.duration_s();
  const std::filesystem::path dir = std::filesystem::absolute(file).parent_path();

  // The rig and the scenarios
  std::filesystem::path rig_file;
  if (m.rig().empty()) {
    check.error("", "no rig; expected rig: \"ravon\" (a name under hil_rigs/ or a file)");
  } else {
    plan.rig_ = resolve(m.rig(), dir);
    try {
      rig_file = config::locate_rig(plan.rig_);
    } catch (const std::exception& e) {
      check.error("rig", e.what());
    }
  }
  if (!rig_file.empty()) {
    const config::LoadResult rig = config::load_rig_config(rig_file);
    for (const config::ConfigError& e : rig.errors) {
      check.error("rig", fmt::format("the rig does not load: {}", e.to_string()));
    }
  }
  for (int i = 0; i < m.scenarios_size(); ++i) {
    plan.scenarios_.push_back(resolve(m.scenarios(i), dir));
    if (rig_file.empty()) continue;
    const std::string at = fmt::format("scenarios[{}]", i);
    try {
      config::ScenarioLoadResult s =
          config::load_scenario(config::locate_scenario(plan.scenarios_.back()), rig_file);
      config::require_rig(s, config::rig_name(m.rig()));
      for (const config::ConfigError& e : s.errors) check.error(at, e.to_string());
    } catch (const std::exception& e) {
      check.error(at, e.what());
    }
  }
  if (plan.scenarios_.empty()) plan.scenarios_.emplace_back();

  // The grid
  for (int d = 0; d < m.grid_size(); ++d) {
    const GridDimension& g = m.grid(d);
    const std::string at = fmt::format("grid[{}]", d);
    std::vector<std::string> values;
    const int kinds =
        (g.values_size() > 0 ? 1 : 0) + (g.has_range() ? 1 : 0) + (g.texts_size() > 0 ? 1 : 0);
    if (!check.field(at + ".field", g.field())) continue;
    if (kinds != 1) {
      check.error(at, kinds == 0 ? "no values; expected values: [...], range { from to count } "
                                   "or texts: [...]"
                                 : "values, range and texts are alternatives; give one");
      continue;
    }
    for (int v = 0; v < g.values_size(); ++v) {
      check.value(fmt::format("{}.values[{}]", at, v), rig_file, g.field(), g.values(v), "");
      values.push_back(number_text(g.values(v)));
    }
    for (int v = 0; v < g.texts_size(); ++v) {
      check.value(fmt::format("{}.texts[{}]", at, v), rig_file, g.field(), std::nullopt,
                  g.texts(v));
      values.push_back(g.texts(v));
    }
    if (g.has_range()) {
      const Range& r = g.range();
      if (!r.has_from() || !r.has_to() || r.count() == 0) {
        check.error(at + ".range",
                    r.count() == 0 && r.has_count()
                        ? "count 0: the range is empty; expected a count of 1 or more"
                        : "expected from, to and count (values from..to inclusive, evenly spaced)");
        continue;
      }
      for (std::uint32_t k = 0; k < r.count(); ++k) {
        const double v = r.count() == 1 ? r.from()
                                        : r.from() + (r.to() - r.from()) * static_cast<double>(k) /
                                                         static_cast<double>(r.count() - 1);
        values.push_back(number_text(v));
        if (k == 0 || k + 1 == r.count()) {
          check.value(at + ".range", rig_file, g.field(), v, "");
        }
      }
    }
    plan.grid_values_.push_back(std::move(values));
    plan.fields_.push_back(g.field());
  }

  // The Monte Carlo dimensions
  for (int d = 0; d < m.random_size(); ++d) {
    const RandomDimension& r = m.random(d);
    const std::string at = fmt::format("random[{}]", d);
    if (!check.field(at + ".field", r.field())) continue;
    if (r.has_uniform()) {
      if (!(r.uniform().min() < r.uniform().max())) {
        check.error(at + ".uniform", fmt::format("min {} is not below max {}: an empty range",
                                                 r.uniform().min(), r.uniform().max()));
        continue;
      }
      check.value(at + ".uniform", rig_file, r.field(), r.uniform().min(), "");
      check.value(at + ".uniform", rig_file, r.field(), r.uniform().max(), "");
    } else if (r.has_normal()) {
      const RandomDimension::Normal& n = r.normal();
      if (!(n.sigma() > 0.0)) {
        check.error(at + ".normal.sigma",
                    fmt::format("sigma {} must be above 0", number_text(n.sigma())));
        continue;
      }
      if (n.has_min() && n.has_max() && !(n.min() < n.max())) {
        check.error(at + ".normal",
                    fmt::format("min {} is not below max {}: an empty range", n.min(), n.max()));
        continue;
      }
      check.value(at + ".normal", rig_file, r.field(),
                  n.has_min() ? n.min() : n.mean() - 4.0 * n.sigma(), "");
      check.value(at + ".normal", rig_file, r.field(),
                  n.has_max() ? n.max() : n.mean() + 4.0 * n.sigma(), "");
    } else {
      check.error(at, "no distribution; expected uniform { min max } or normal { mean sigma }");
      continue;
    }
    plan.fields_.push_back(r.field());
  }
  if (m.noise_seeds()) plan.fields_.emplace_back("vehicle.seed");

  // Counts
  const auto count = [&](const char* field, bool has, std::uint32_t value, std::uint32_t dflt) {
    if (has && value == 0) {
      check.error(field, fmt::format("{} 0: expected 1 or more", field));
      return std::size_t{1};
    }
    return static_cast<std::size_t>(has ? value : dflt);
  };
  plan.samples_ = count("samples", m.has_samples(), m.samples(), 1);
  plan.repetitions_ = count("repetitions", m.has_repetitions(), m.repetitions(), 1);
  plan.per_task_ = count("per_task", m.has_per_task(), m.per_task(), kDefaultPerTask);
  if (plan.samples_ > 1 && m.random_size() == 0) {
    check.error("samples", "samples without random dimensions would repeat the same run");
  }
  if (plan.repetitions_ > 1 && !m.noise_seeds()) {
    check.error("repetitions",
                "runs are deterministic: repetitions > 1 without noise_seeds: true would all be "
                "the same run");
  }
  if (m.has_timeout_s() && !(m.timeout_s() > 0.0)) {
    check.error("timeout_s", fmt::format("{} s: expected a time above 0", m.timeout_s()));
  }
  plan.timeout_s_ = m.has_timeout_s() ? m.timeout_s() : kDefaultTimeout;
  if (m.has_duration_s() && !(m.duration_s() > 0.0)) {
    check.error("duration_s", fmt::format("{} s: expected a time above 0", m.duration_s()));
  }
  auto size = static_cast<double>(plan.scenarios_.size() * plan.samples_ * plan.repetitions_);
  for (const auto& values : plan.grid_values_) {
    size *= static_cast<double>(values.size());
    plan.grid_points_ *= values.size();
  }
  if (size > static_cast<double>(kMaxVariants)) {
    check.error("", fmt::format("{} variants; at most {}", size, kMaxVariants));
  }
  plan.size_ = static_cast<std::size_t>(size);
  if (!result.errors.empty()) return result;
  result.plan = std::move(plan);
  return result;
}

Variant SweepPlan::variant(std::size_t index) const {
  Variant v;
  v.index = index;
  std::size_t rest = index;
  v.repetition = rest % repetitions_;
  rest /= repetitions_;
  v.sample = rest % samples_;
  rest /= samples_;
  v.grid_point = rest % grid_points_;
  v.scenario = scenarios_[rest / grid_points_];
  v.seed = models::derive_seed(message_->has_seed() ? message_->seed() : 1,
                               fmt::format("variant {}", index));
  RigConfig overlay;
  std::size_t point = v.grid_point;
  std::vector<std::size_t> digits(grid_values_.size());
  for (std::size_t d = grid_values_.size(); d-- > 0;) {  // the last dimension varies fastest
    digits[d] = point % grid_values_[d].size();
    point /= grid_values_[d].size();
  }
  for (std::size_t d = 0; d < grid_values_.size(); ++d) {
    const GridDimension& g = message_->grid(static_cast<int>(d));
    const std::string& value = grid_values_[d][digits[d]];
    const bool is_text = g.texts_size() > 0;
    (void)set_field(overlay, g.field(), is_text ? std::nullopt : std::optional(std::stod(value)),
                    is_text ? value : "");
    v.parameters.push_back({g.field(), value});
  }
  for (const RandomDimension& r : message_->random()) {
    const double x = draw(r, message_->has_seed() ? message_->seed() : 1, index);
    (void)set_field(overlay, r.field(), x, "");
    v.parameters.push_back({r.field(), number_text(x)});
  }
  if (message_->noise_seeds()) {
    overlay.mutable_vehicle()->set_seed(v.seed);
    v.parameters.push_back({"vehicle.seed", std::to_string(v.seed)});
  }
  std::string body;
  pb::TextFormat::PrintToString(overlay, &body);
  v.overlay =
      fmt::format("# variant {} of sweep {} ({}), written by hilsim sweep\n{}", index, name_,
                  std::filesystem::absolute(file_).lexically_normal().string(), body);
  return v;
}

}  // namespace hil::config
