#pragma once
// The rig's `fmus` blocks (config/fmu.proto) checked and resolved: each FMU opened (unpacked,
// its model description read, its binary loaded) and every name of its mapping checked against
// the model description and the rig's channels — variables known (did-you-mean), of a type a
// channel holds (reals, integers, booleans, enumerations: channels are doubles, integers exact
// up to 2^53, booleans 0/1; strings, binaries, clocks, arrays and structural parameters are
// refused), of the right causality (a parameter, an input, an output), a parameter's value one
// of its type (an integer in range, a boolean 0 or 1), units equal where both sides declare
// one; channels known (did-you-mean); an output's driven channel an input of the rig.
// Errors are located in the rig file. Setup phase. Thread-safety: a function of its arguments.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "config/text/config_error.hpp"
#include "config/text/source_map.hpp"
#include "io/fmu/model_description.hpp"
#include "rt_core/channel_table.hpp"

namespace google::protobuf {
template <typename Element>
class RepeatedPtrField;
}  // namespace google::protobuf

namespace hil::config {

class Fmu;  // config/fmu.proto

/// Where an FMU steps (config/fmu.proto `thread`).
enum class FmuThread : std::uint8_t {
  automatic,  ///< the RT thread if its probe finds it real-time safe, else a worker
  rt_thread,
  worker,
};

struct FmuSpec {
  std::filesystem::path path;  ///< absolute
  std::string instance;
  std::uint32_t every_ticks = 1;
  FmuThread thread = FmuThread::automatic;  ///< where it steps (FmuStage decides automatic)
  struct Parameter {
    std::string name;
    std::uint32_t value_reference = 0;
    double value = 0.0;
    io::fmu::ValueType type = io::fmu::ValueType::float64;
  };
  struct Input {
    std::string channel;
    std::string variable;
    std::uint32_t value_reference = 0;
    io::fmu::ValueType type = io::fmu::ValueType::float64;
  };
  struct Output {
    std::string variable;
    std::uint32_t value_reference = 0;
    std::string unit;     ///< the variable's, "-" when it declares none
    double safe = 0.0;    ///< what the channel holds when a step fails: its start value, or 0
    std::string channel;  ///< fmu.<instance>.<variable>
    std::string drives;   ///< an input channel of the rig it also sets, or ""
    io::fmu::ValueType type = io::fmu::ValueType::float64;
  };
  std::vector<Parameter> parameters;
  std::vector<Input> inputs;
  std::vector<Output> outputs;
};

/// Checks `fmus` against the rig's channels `table`; `prefix` is "fmus"; `dir_of` gives the
/// directory a field's file lives in (paths are relative to the file that names them).
[[nodiscard]] ConfigErrors check_fmus(const google::protobuf::RepeatedPtrField<Fmu>& fmus,
                                      const rt::ChannelTable& table, std::string_view prefix,
                                      const SourceMap& sources, std::vector<FmuSpec>& out);

}  // namespace hil::config
