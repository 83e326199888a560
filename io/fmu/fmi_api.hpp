#pragma once
// The FMI C API that hilsim calls, declared from the standards' texts: FMI 2.0.4 (Modelisar /
// Modelica Association, "Functional Mock-up Interface for Model Exchange and Co-Simulation",
// §2.1 types and functions, §4 co-simulation) and FMI 3.0 (§2.2 API, §4 co-simulation).
// Function pointer types only: an FMU's functions are resolved with dlsym (fmu.hpp), never
// linked. Only what co-simulation of scalar values needs.

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

}  // namespace fmi2

// ---- FMI 3.0 ----------------------------------------------------------------------------------
namespace fmi3 {

using Instance = void*;
using InstanceEnvironment = void*;
using ValueReference = std::uint32_t;
using Float64 = double;
using Int32 = std::int32_t;
using Boolean = bool;
using String = const char*;

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
using DoStep = Status (*)(Instance, Float64 current_communication_point,
                          Float64 communication_step_size,
                          Boolean no_set_fmu_state_prior_to_current_point,
                          Boolean* event_handling_needed, Boolean* terminate_simulation,
                          Boolean* early_return, Float64* last_successful_time);

}  // namespace fmi3

}  // namespace hil::io::fmu
