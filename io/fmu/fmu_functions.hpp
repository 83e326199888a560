#pragma once
// Inside Fmu (fmu.hpp): the FMU's functions as dlsym found them, and the status code both FMI
// versions share. Not part of the library's interface; fmu.cpp loads and instantiates,
// fmu_typed_access.cpp gets and sets values of every type.
//
// Thread-safety: as Fmu's.

#include <array>
#include <cstddef>
#include <cstdlib>

#include "io/fmu/fmi_api.hpp"
#include "io/fmu/fmu.hpp"

namespace hil::io::fmu {
namespace detail {

inline constexpr std::size_t kValueTypes = static_cast<std::size_t>(ValueType::string) + 1;
inline constexpr int kError = 3;

/// The status code both FMI versions share: 0 OK, 1 warning, 2 discard, 3 error, 4 fatal.
template <typename Status>
constexpr int code(Status status) noexcept {
  return static_cast<int>(status);
}

/// The FMI 2 logger handed to the FMU (spdlog, its status as the level).
void fmi2_log(fmi2::ComponentEnvironment env, fmi2::String instance, fmi2::Status status,
              fmi2::String category, fmi2::String message, ...);

}  // namespace detail

struct Fmu::Functions {
  fmi2::Instantiate instantiate2 = nullptr;
  fmi2::SetupExperiment setup2 = nullptr;
  fmi2::EnterInitializationMode enter2 = nullptr;
  fmi2::ExitInitializationMode exit2 = nullptr;
  fmi2::GetReal get2 = nullptr;
  fmi2::SetReal set2 = nullptr;
  fmi2::DoStep step2 = nullptr;
  fmi2::Terminate terminate2 = nullptr;
  fmi2::FreeInstance free2 = nullptr;
  fmi3::InstantiateCoSimulation instantiate3 = nullptr;
  fmi3::EnterInitializationMode enter3 = nullptr;
  fmi3::ExitInitializationMode exit3 = nullptr;
  fmi3::GetFloat64 get3 = nullptr;
  fmi3::SetFloat64 set3 = nullptr;
  fmi3::DoStep step3 = nullptr;
  fmi3::Terminate terminate3 = nullptr;
  fmi3::FreeInstance free3 = nullptr;
  // Values of the other types: optional (a call of one the FMU lacks answers error)
  fmi2::GetInteger get_int2 = nullptr;
  fmi2::SetInteger set_int2 = nullptr;
  fmi2::GetBoolean get_bool2 = nullptr;
  fmi2::SetBoolean set_bool2 = nullptr;
  fmi2::GetString get_string2 = nullptr;
  fmi2::SetString set_string2 = nullptr;
  fmi2::GetRealStatus real_status2 = nullptr;
  fmi2::GetBooleanStatus boolean_status2 = nullptr;
  std::array<void*, detail::kValueTypes>
      getters3{};  ///< fmi3Get<T> by ValueType (float64 … string)
  std::array<void*, detail::kValueTypes> setters3{};
  fmi3::GetBinary get_binary3 = nullptr;
  fmi3::SetBinary set_binary3 = nullptr;
  fmi3::EnterConfigurationMode enter_configuration3 = nullptr;
  fmi3::ExitConfigurationMode exit_configuration3 = nullptr;
  fmi2::CallbackFunctions callbacks2{.logger = detail::fmi2_log,
                                     .allocate_memory = std::calloc,
                                     .free_memory = std::free,
                                     .step_finished = nullptr,
                                     .component_environment = nullptr};
};

}  // namespace hil::io::fmu
