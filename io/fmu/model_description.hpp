#pragma once
// An FMU's modelDescription.xml (FMI 2.0 §2.2, FMI 3.0 §2.4): version, model name, GUID or
// instantiation token, the co-simulation interface (model identifier, capabilities), the
// default experiment and the variables (name, value reference, type, causality, variability,
// start value, unit, description). FMI 1.0 and files that are no model description are
// refused with a located error "modelDescription.xml:LINE:COLUMN: what". Setup phase
// (allocates, throws FmuError). Thread-safety: pure functions, immutable results.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hil::io::fmu {

class FmuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class FmiVersion : std::uint8_t { fmi2, fmi3 };

enum class VariableType : std::uint8_t { real, integer, boolean, string, enumeration, other };
enum class Causality : std::uint8_t {
  parameter,
  calculated_parameter,
  input,
  output,
  local,
  independent,
  structural_parameter
};
enum class Variability : std::uint8_t { constant, fixed, tunable, discrete, continuous };

struct Variable {
  std::string name;
  std::uint32_t value_reference = 0;
  VariableType type = VariableType::real;
  std::string type_name;  ///< as written: Real, Float64, Int32, …
  Causality causality = Causality::local;
  Variability variability = Variability::continuous;
  std::optional<std::string> start;  ///< as written
  std::string unit;
  std::string description;
  std::uint32_t line = 0;  ///< in modelDescription.xml
};

struct DefaultExperiment {
  std::optional<double> start_time;
  std::optional<double> stop_time;
  std::optional<double> step_size;
  std::optional<double> tolerance;
};

struct ModelDescription {
  FmiVersion version = FmiVersion::fmi2;
  std::string fmi_version;  ///< as written: "2.0", "3.0"
  std::string model_name;
  std::string token;  ///< FMI 2 guid / FMI 3 instantiationToken
  std::string description;
  std::string generation_tool;
  bool co_simulation = false;
  bool model_exchange = false;
  std::string model_identifier;  ///< of the co-simulation interface
  bool can_handle_variable_step = false;
  bool can_be_instantiated_only_once_per_process = false;
  bool needs_execution_tool = false;
  DefaultExperiment default_experiment;
  std::vector<Variable> variables;

  [[nodiscard]] const Variable* find(std::string_view name) const noexcept;
};

/// Parses `xml`; `name` prefixes error messages ("x.fmu/modelDescription.xml").
[[nodiscard]] ModelDescription parse_model_description(std::string_view xml, std::string_view name);

[[nodiscard]] std::string_view to_string(Causality c) noexcept;
[[nodiscard]] std::string_view to_string(Variability v) noexcept;

}  // namespace hil::io::fmu
