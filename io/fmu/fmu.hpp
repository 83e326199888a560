#pragma once
// An FMU (FMI 2.0 or 3.0, co-simulation) opened for use: unpacked into a private temporary
// directory (removed when the Fmu is destroyed), its modelDescription.xml parsed, the platform
// binary (binaries/linux64/ for FMI 2, binaries/x86_64-linux/ for FMI 3) loaded with dlopen and
// its functions resolved; then one instance to initialise, set and get real values of, step
// and terminate; values of every type (get_values/set_values in the C API's own layout, FMI 3
// arrays included); the end of the simulation the FMU asks for (fmi2Discard with
// fmi2Terminated, FMI 3 terminateSimulation) and FMI 3's early return. The FMU's log messages
// go to spdlog. Errors: FmuError naming the file and what is wrong (not a zip, no model
// description, no binary for this platform, a function missing, a call that failed with its
// status). A get/set function of a type the FMU does not export answers status 3 (error).
// An FMU run by model exchange (only <ModelExchange>, or load(file, true)) looks the same to
// its users: instantiate/exit_initialization do FMI's model-exchange start, and do_step is
// hilsim's integrator over the step with the FMU's events (fmu_me.hpp, model_exchange()).
// Setup phase: load() allocates and throws. The instance calls (set_real, get_real,
// get_values, set_values, do_step) allocate nothing of ours; whether the FMU's code allocates is
// the FMU's (DESIGN.md §5: the rig probes it before it runs one on the RT thread). Thread-safety:
// one thread at a time.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/fmu/model_description.hpp"

namespace hil::io::fmu {

/// How the instance is set up (instantiate()).
struct InstantiateSpec {
  std::optional<double> stop_time;
  std::optional<double> tolerance;
  /// FMI 3: the FMU may return early from fmi3DoStep (end_of_step() says where it stopped).
  bool early_return_allowed = false;
  /// FMI 3: called in configuration mode (structural parameters set here), when given.
  std::function<void()> configure;
};

/// How the last do_step ended besides its status.
struct StepEnd {
  bool terminate = false;     ///< the FMU asks to end the simulation (its outputs are valid)
  bool early_return = false;  ///< FMI 3: it returned before the step's end
  double last_successful_time = 0.0;  ///< where it stopped (terminate, early return, discard)
};

class ModelExchange;

class Fmu {
 public:
  /// Opens `file` (.fmu). Throws FmuError.
  [[nodiscard]] static std::unique_ptr<Fmu> load(const std::filesystem::path& file);
  /// With `model_exchange`, an FMU that has both interfaces runs by model exchange (fmu_me.hpp);
  /// one with only <ModelExchange> always does. Throws FmuError.
  [[nodiscard]] static std::unique_ptr<Fmu> load(const std::filesystem::path& file,
                                                 bool model_exchange);
  ~Fmu();
  Fmu(const Fmu&) = delete;
  Fmu& operator=(const Fmu&) = delete;

  [[nodiscard]] const ModelDescription& description() const noexcept { return description_; }
  /// The platform directories under binaries/ (linux64, x86_64-linux, win64, …).
  [[nodiscard]] const std::vector<std::string>& platforms() const noexcept { return platforms_; }

  /// Instantiates for co-simulation and enters initialisation mode at `start_time` (with the
  /// stop time when given). Parameters and start values are set between this and
  /// exit_initialization().
  void instantiate(std::string_view instance_name, double start_time,
                   std::optional<double> stop_time);
  void instantiate(std::string_view instance_name, double start_time,
                   const InstantiateSpec& options);
  void exit_initialization();
  /// Status of the calls below: 0 OK, 1 warning, 2 discard, 3 error, 4 fatal (both versions).
  int set_real(std::span<const std::uint32_t> refs, std::span<const double> values) noexcept;
  int get_real(std::span<const std::uint32_t> refs, std::span<double> values) noexcept;
  /// Values of variables whose C type is `type` (their Variable::value_type): `n` values in
  /// all (arrays: all their values, in order), laid out as the C API's arrays of that type
  /// (fmi2Boolean an int, fmi3Boolean a bool, strings const char*). Binary: get_binary.
  int get_values(ValueType type, std::span<const std::uint32_t> refs, void* values,
                 std::size_t n) noexcept;
  int set_values(ValueType type, std::span<const std::uint32_t> refs, const void* values,
                 std::size_t n) noexcept;
  /// Scalars of numeric types (`types[i]`: refs[i]'s value_type; empty: all float64) as
  /// doubles, converted as fmu_values.hpp does: one call when all are float64, else one per
  /// variable. The rig's channels. Allocates nothing.
  int set_as_double(std::span<const ValueType> types, std::span<const std::uint32_t> refs,
                    std::span<const double> values) noexcept;
  int get_as_double(std::span<const ValueType> types, std::span<const std::uint32_t> refs,
                    std::span<double> values) noexcept;
  /// FMI 3 Binary values: sizes and pointers (get: valid until the next call).
  int get_binary(std::span<const std::uint32_t> refs, std::size_t sizes[],
                 const std::uint8_t* values[], std::size_t n) noexcept;
  int set_binary(std::span<const std::uint32_t> refs, const std::size_t sizes[],
                 const std::uint8_t* const values[], std::size_t n) noexcept;
  /// Steps from `time` by `step`. A discard (FMI 2) asks the FMU whether it terminated and
  /// where it stopped; end_of_step() holds that and FMI 3's terminateSimulation/earlyReturn.
  int do_step(double time, double step) noexcept;
  [[nodiscard]] const StepEnd& end_of_step() const noexcept { return step_end_; }
  /// Run by model exchange: hilsim's integrator (solver, events), else nullptr.
  [[nodiscard]] ModelExchange* model_exchange() noexcept { return me_.get(); }
  [[nodiscard]] const ModelExchange* model_exchange() const noexcept { return me_.get(); }
  void terminate() noexcept;

 private:
  Fmu() = default;
  struct Functions;

  std::filesystem::path file_;
  std::filesystem::path directory_;
  ModelDescription description_;
  std::vector<std::string> platforms_;
  void* library_ = nullptr;
  std::unique_ptr<Functions> f_;
  std::unique_ptr<ModelExchange> me_;  ///< runs by model exchange (fmu_me.hpp): do_step integrates
  void* instance_ = nullptr;
  bool terminated_ = false;
  StepEnd step_end_;
  std::string instance_name_;
};

/// Unpacks the zip archive `file` into `directory` (created). Refuses entries that would leave
/// it ("../", absolute) and archives above 1 GiB unpacked. Throws FmuError.
void unpack_fmu(const std::filesystem::path& file, const std::filesystem::path& directory);

}  // namespace hil::io::fmu
