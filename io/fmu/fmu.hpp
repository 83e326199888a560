#pragma once
// An FMU (FMI 2.0 or 3.0, co-simulation) opened for use: unpacked into a private temporary
// directory (removed when the Fmu is destroyed), its modelDescription.xml parsed, the platform
// binary (binaries/linux64/ for FMI 2, binaries/x86_64-linux/ for FMI 3) loaded with dlopen and
// its functions resolved; then one instance to initialise, set and get real values of, step
// and terminate. The FMU's log messages go to spdlog. Errors: FmuError naming the file and
// what is wrong (not a zip, no model description, no binary for this platform, a function
// missing, a call that failed with its status).
// Setup phase: load() allocates and throws. The instance calls (set_real, get_real, do_step)
// allocate nothing of ours; whether the FMU's code allocates is the FMU's (DESIGN.md §5: the
// rig probes it before it runs one on the RT thread). Thread-safety: one thread at a time.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/fmu/model_description.hpp"

namespace hil::io::fmu {

class Fmu {
 public:
  /// Opens `file` (.fmu). Throws FmuError.
  [[nodiscard]] static std::unique_ptr<Fmu> load(const std::filesystem::path& file);
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
  void exit_initialization();
  /// Status of the calls below: 0 OK, 1 warning, 2 discard, 3 error, 4 fatal (both versions).
  int set_real(std::span<const std::uint32_t> refs, std::span<const double> values) noexcept;
  int get_real(std::span<const std::uint32_t> refs, std::span<double> values) noexcept;
  int do_step(double time, double step) noexcept;
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
  void* instance_ = nullptr;
  bool terminated_ = false;
  std::string instance_name_;
};

/// Unpacks the zip archive `file` into `directory` (created). Refuses entries that would leave
/// it ("../", absolute) and archives above 1 GiB unpacked. Throws FmuError.
void unpack_fmu(const std::filesystem::path& file, const std::filesystem::path& directory);

}  // namespace hil::io::fmu
