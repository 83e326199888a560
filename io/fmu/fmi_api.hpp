#pragma once
// The FMI C API that hilsim calls, declared from the standards' texts: FMI 2.0.4 (Modelisar /
// Modelica Association, "Functional Mock-up Interface for Model Exchange and Co-Simulation",
// §2.1 types and functions, §4 co-simulation) and FMI 3.0 (§2.2 API, §4 co-simulation).
// Function pointer types only: an FMU's functions are resolved with dlsym (fmu.hpp), never
// linked. What co-simulation of scalar values needs, and model exchange with FMI 3 clocks
// (fmu_me.hpp).

#include <cstddef>
#include <cstdint>

namespace hil::io::fmu {

// ---- FMI 2.0 ----------------------------------------------------------------------------------
namespace fmi2 {

using Component = void*;
using ComponentEnvironment = void*;
using ValueReference = unsigned int;
using Real = double;
using Integer = int;
using Boolean = int;
using String = const char*;

enum class Status : int { ok, warning, discard, error, fatal, pending };
enum class Type : int { model_exchange, co_simulation };

using CallbackLogger = void (*)(ComponentEnvironment, String instance_name, Status status,
                                String category, String message, ...);
using CallbackAllocateMemory = void* (*)(std::size_t count, std::size_t size);
using CallbackFreeMemory = void (*)(void* object);
using StepFinished = void (*)(ComponentEnvironment, Status);

struct CallbackFunctions {
  CallbackLogger logger;
  CallbackAllocateMemory allocate_memory;
  CallbackFreeMemory free_memory;
  StepFinished step_finished;
  ComponentEnvironment component_environment;
};

using GetVersion = const char* (*)();
using Instantiate = Component (*)(String instance_name, Type type, String guid,
                                  String resource_location, const CallbackFunctions* functions,
                                  Boolean visible, Boolean logging_on);
using FreeInstance = void (*)(Component);
using SetupExperiment = Status (*)(Component, Boolean tolerance_defined, Real tolerance,
                                   Real start_time, Boolean stop_time_defined, Real stop_time);
using EnterInitializationMode = Status (*)(Component);
using ExitInitializationMode = Status (*)(Component);
using Terminate = Status (*)(Component);
using GetReal = Status (*)(Component, const ValueReference vr[], std::size_t nvr, Real value[]);
using SetReal = Status (*)(Component, const ValueReference vr[], std::size_t nvr,
                           const Real value[]);
using GetInteger = Status (*)(Component, const ValueReference vr[], std::size_t nvr,
                              Integer value[]);
using SetInteger = Status (*)(Component, const ValueReference vr[], std::size_t nvr,
                              const Integer value[]);
using GetBoolean = Status (*)(Component, const ValueReference vr[], std::size_t nvr,
                              Boolean value[]);
using SetBoolean = Status (*)(Component, const ValueReference vr[], std::size_t nvr,
                              const Boolean value[]);
using DoStep = Status (*)(Component, Real current_communication_point, Real communication_step_size,
                          Boolean no_set_fmu_state_prior_to_current_point);
using GetString = Status (*)(Component, const ValueReference vr[], std::size_t nvr, String value[]);
using SetString = Status (*)(Component, const ValueReference vr[], std::size_t nvr,
                             const String value[]);
/// §4.2.3 fmi2StatusKind: what fmi2Get*Status asks for.
enum class StatusKind : int { do_step_status, pending_status, last_successful_time, terminated };
using GetRealStatus = Status (*)(Component, StatusKind, Real* value);
using GetBooleanStatus = Status (*)(Component, StatusKind, Boolean* value);

// Model exchange (FMI 2.0.4 §3.2)
struct EventInfo {
  Boolean new_discrete_states_needed;
  Boolean terminate_simulation;
  Boolean nominals_of_continuous_states_changed;
  Boolean values_of_continuous_states_changed;
  Boolean next_event_time_defined;
  Real next_event_time;
};
using EnterEventMode = Status (*)(Component);
using NewDiscreteStates = Status (*)(Component, EventInfo* event_info);
using EnterContinuousTimeMode = Status (*)(Component);
using CompletedIntegratorStep = Status (*)(Component,
                                           Boolean no_set_fmu_state_prior_to_current_point,
                                           Boolean* enter_event_mode,
                                           Boolean* terminate_simulation);
using SetTime = Status (*)(Component, Real time);
using SetContinuousStates = Status (*)(Component, const Real x[], std::size_t nx);
using GetDerivatives = Status (*)(Component, Real derivatives[], std::size_t nx);
using GetEventIndicators = Status (*)(Component, Real event_indicators[], std::size_t ni);
using GetContinuousStates = Status (*)(Component, Real x[], std::size_t nx);

}  // namespace fmi2

// ---- FMI 3.0 ----------------------------------------------------------------------------------
namespace fmi3 {

using Instance = void*;
using InstanceEnvironment = void*;
using ValueReference = std::uint32_t;
using Float64 = double;
using Float32 = float;
using Int8 = std::int8_t;
using UInt8 = std::uint8_t;
using Int16 = std::int16_t;
using UInt16 = std::uint16_t;
using Int32 = std::int32_t;
using UInt32 = std::uint32_t;
using Int64 = std::int64_t;
using UInt64 = std::uint64_t;
using Boolean = bool;
using String = const char*;
using Byte = std::uint8_t;
using Binary = const Byte*;

enum class Status : int { ok, warning, discard, error, fatal };

using LogMessageCallback = void (*)(InstanceEnvironment, Status status, String category,
                                    String message);
using IntermediateUpdateCallback = void (*)(InstanceEnvironment, Float64 intermediate_update_time,
                                            Boolean intermediate_variable_set_requested,
                                            Boolean intermediate_variable_get_allowed,
                                            Boolean intermediate_step_finished,
                                            Boolean can_return_early,
                                            Boolean* early_return_requested,
                                            Float64* early_return_time);

using GetVersion = const char* (*)();
using InstantiateCoSimulation = Instance (*)(
    String instance_name, String instantiation_token, String resource_path, Boolean visible,
    Boolean logging_on, Boolean event_mode_used, Boolean early_return_allowed,
    const ValueReference required_intermediate_variables[],
    std::size_t n_required_intermediate_variables, InstanceEnvironment instance_environment,
    LogMessageCallback log_message, IntermediateUpdateCallback intermediate_update);
using FreeInstance = void (*)(Instance);
using EnterInitializationMode = Status (*)(Instance, Boolean tolerance_defined, Float64 tolerance,
                                           Float64 start_time, Boolean stop_time_defined,
                                           Float64 stop_time);
using ExitInitializationMode = Status (*)(Instance);
using Terminate = Status (*)(Instance);
using GetFloat64 = Status (*)(Instance, const ValueReference vr[], std::size_t nvr,
                              Float64 values[], std::size_t n_values);
using SetFloat64 = Status (*)(Instance, const ValueReference vr[], std::size_t nvr,
                              const Float64 values[], std::size_t n_values);
/// fmi3Get<T> / fmi3Set<T> of one type T (§2.2.6.2): values of nvr variables, n_values in all.
template <typename T>
using GetValues = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, T values[],
                             std::size_t n_values);
template <typename T>
using SetValues = Status (*)(Instance, const ValueReference vr[], std::size_t nvr, const T values[],
                             std::size_t n_values);
using GetBinary = Status (*)(Instance, const ValueReference vr[], std::size_t nvr,
                             std::size_t value_sizes[], Binary values[], std::size_t n_values);
using SetBinary = Status (*)(Instance, const ValueReference vr[], std::size_t nvr,
                             const std::size_t value_sizes[], const Binary values[],
                             std::size_t n_values);
using EnterConfigurationMode = Status (*)(Instance);
using ExitConfigurationMode = Status (*)(Instance);
using DoStep = Status (*)(Instance, Float64 current_communication_point,
                          Float64 communication_step_size,
                          Boolean no_set_fmu_state_prior_to_current_point,
                          Boolean* event_handling_needed, Boolean* terminate_simulation,
                          Boolean* early_return, Float64* last_successful_time);

// Model exchange (FMI 3.0 §3.2) and clocks (§2.2.8)
using Clock = bool;
using InstantiateModelExchange = Instance (*)(String instance_name, String instantiation_token,
                                              String resource_path, Boolean visible,
                                              Boolean logging_on,
                                              InstanceEnvironment instance_environment,
                                              LogMessageCallback log_message);
using EnterEventMode = Status (*)(Instance);
using UpdateDiscreteStates = Status (*)(Instance, Boolean* discrete_states_need_update,
                                        Boolean* terminate_simulation,
                                        Boolean* nominals_of_continuous_states_changed,
                                        Boolean* values_of_continuous_states_changed,
                                        Boolean* next_event_time_defined, Float64* next_event_time);
using EnterContinuousTimeMode = Status (*)(Instance);
using CompletedIntegratorStep = Status (*)(Instance,
                                           Boolean no_set_fmu_state_prior_to_current_point,
                                           Boolean* enter_event_mode,
                                           Boolean* terminate_simulation);
using SetTime = Status (*)(Instance, Float64 time);
using SetContinuousStates = Status (*)(Instance, const Float64 continuous_states[],
                                       std::size_t n_continuous_states);
using GetContinuousStateDerivatives = Status (*)(Instance, Float64 derivatives[],
                                                 std::size_t n_continuous_states);
using GetEventIndicators = Status (*)(Instance, Float64 event_indicators[],
                                      std::size_t n_event_indicators);
using GetContinuousStates = Status (*)(Instance, Float64 continuous_states[],
                                       std::size_t n_continuous_states);
using SetClock = Status (*)(Instance, const ValueReference vr[], std::size_t nvr,
                            const Clock values[]);

}  // namespace fmi3

}  // namespace hil::io::fmu
