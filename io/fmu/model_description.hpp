#pragma once
// An FMU's modelDescription.xml (FMI 2.0 §2.2, FMI 3.0 §2.4): version, model name, GUID or
// instantiation token, the co-simulation and model-exchange interfaces (model identifier,
// capabilities), the default experiment, the variables of every type (FMI 2 Real, Integer,
// Boolean, String, Enumeration; FMI 3 Float32/64, Int8…UInt64, Boolean, String, Binary,
// Enumeration, Clock) with their arrays' dimensions (FMI 3 <Dimension start=…> or
// valueReference= a structural parameter), and the model structure (outputs, state
// derivatives, FMI 3 event indicators) a model-exchange importer needs. FMI 1.0 and files that
// are no model description are refused with a located error "modelDescription.xml:LINE:COLUMN:
// what". Setup phase (allocates, throws FmuError). Thread-safety: pure functions, immutable
// results.

#include <cstdint>
#include <map>
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

/// The kind of variable, both versions' names folded (Real/Float64/Float32 → real, …).
enum class VariableType : std::uint8_t {
  real,
  integer,
  boolean,
  string,
  enumeration,
  binary,
  clock,
  other
};
/// The C type of one value, the one the get/set functions take (fmi_api.hpp): FMI 2 Real →
/// float64, Integer and Enumeration → int32, Boolean → boolean (fmi2Boolean, an int); FMI 3
/// its element's type, Enumeration → int64, Boolean → boolean (fmi3Boolean, a bool).
enum class ValueType : std::uint8_t {
  float64,
  float32,
  int8,
  uint8,
  int16,
  uint16,
  int32,
  uint32,
  int64,
  uint64,
  boolean,
  string,
  binary,
  clock,
  none
};
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
/// FMI 3 clocks' intervalVariability (§2.4.7.5).
enum class ClockInterval : std::uint8_t {
  none,
  constant,
  fixed,
  calculated,
  tunable,
  changing,
  countdown,
  triggered
};

/// One dimension of an FMI 3 array: a fixed size, or the value of a structural parameter.
struct Dimension {
  std::optional<std::uint64_t> start;
  std::optional<std::uint32_t> value_reference;
};

struct Variable {
  std::string name;
  std::uint32_t value_reference = 0;
  VariableType type = VariableType::real;
  ValueType value_type = ValueType::float64;
  std::string type_name;  ///< as written: Real, Float64, Int32, …
  std::string declared_type;
  Causality causality = Causality::local;
  Variability variability = Variability::continuous;
  std::string initial;               ///< as written: exact, approx, calculated, or ""
  std::optional<std::string> start;  ///< as written (FMI 3 arrays: the values space-separated)
  std::string unit;
  std::string description;
  std::vector<Dimension> dimensions;  ///< FMI 3 arrays; empty for a scalar
  /// Values at the start values of the structural parameters (1 for a scalar).
  std::size_t size = 1;
  /// Index (in ModelDescription::variables) of the state this is the derivative of.
  std::optional<std::size_t> derivative_of;
  std::vector<std::uint32_t> clocks;  ///< FMI 3 clocked variables: their clocks' references
  // FMI 3 Clock variables
  ClockInterval interval_variability = ClockInterval::none;
  std::optional<double> interval_decimal;
  std::optional<double> shift_decimal;
  std::optional<std::uint64_t> interval_counter;
  std::optional<std::uint64_t> resolution;
  bool can_be_deactivated = false;
  std::optional<std::int32_t> priority;
  std::uint32_t line = 0;  ///< in modelDescription.xml
};

struct DefaultExperiment {
  std::optional<double> start_time;
  std::optional<double> stop_time;
  std::optional<double> step_size;
  std::optional<double> tolerance;
};

/// The <ModelExchange> element's attributes (FMI 2 §3.3, FMI 3 §3.8).
struct ModelExchangeInterface {
  std::string model_identifier;
  bool needs_execution_tool = false;
  bool can_be_instantiated_only_once_per_process = false;
  bool can_get_and_set_fmu_state = false;
  bool provides_directional_derivatives = false;
  bool completed_integrator_step_not_needed = false;  ///< FMI 2 and 3 (FMI 2: …NotNeeded too)
  bool needs_completed_integrator_step = false;       ///< FMI 3
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
  // FMI 3 co-simulation
  bool has_event_mode = false;
  bool provides_intermediate_update = false;
  bool might_return_early_from_do_step = false;
  bool can_return_early_after_intermediate_update = false;
  std::optional<double> fixed_internal_step_size;
  ModelExchangeInterface me;  ///< when model_exchange
  /// FMI 2: the root's numberOfEventIndicators; FMI 3: the <EventIndicator>s.
  std::uint32_t number_of_event_indicators = 0;
  DefaultExperiment default_experiment;
  std::vector<Variable> variables;
  // Model structure: indices into variables, in the file's order
  std::vector<std::size_t> outputs;
  std::vector<std::size_t> derivatives;  ///< FMI 2 <Derivatives>, FMI 3 ContinuousStateDerivative
  std::vector<std::size_t> event_indicators;  ///< FMI 3 <EventIndicator>

  [[nodiscard]] const Variable* find(std::string_view name) const noexcept;
  /// The variable with value reference `vr` (FMI 2: the first of its aliases), or nullptr.
  [[nodiscard]] const Variable* by_reference(std::uint32_t vr) const noexcept;
  /// How many values `v` has when the structural parameters are `structural` (value
  /// reference → value; others at their start values). Throws FmuError above 2^24 values.
  [[nodiscard]] std::size_t size_of(const Variable& v,
                                    const std::map<std::uint32_t, std::uint64_t>& structural) const;
};

/// Parses `xml`; `name` prefixes error messages ("x.fmu/modelDescription.xml").
[[nodiscard]] ModelDescription parse_model_description(std::string_view xml, std::string_view name);

[[nodiscard]] std::string_view to_string(Causality c) noexcept;
[[nodiscard]] std::string_view to_string(Variability v) noexcept;
[[nodiscard]] std::string_view to_string(ClockInterval c) noexcept;
/// "Float64", "Int32", … (FMI 3 names: FMI 2's Real is float64).
[[nodiscard]] std::string_view to_string(ValueType t) noexcept;
/// Bytes of one value in the C API of `version` (fmi2Boolean 4, fmi3Boolean 1, pointers 8).
[[nodiscard]] std::size_t value_bytes(ValueType t, FmiVersion version) noexcept;

}  // namespace hil::io::fmu
