#pragma once
// What running an FMU by model exchange needs, taken from its model description
// (model_description.hpp; FMI 2.0.4 §3.3, FMI 3.0 §3.3 and §2.4.7.5): the <ModelExchange>
// interface's model identifier, the number of continuous states (the state derivatives' values),
// the number of event indicators, and the FMI 3 clocks. hilsim ticks periodic input clocks of
// constant interval (time-based clocks: the clock's partition runs in event mode at
// shift + k·interval); every other clock, clocks in co-simulation, and an FMU with only a
// <ScheduledExecution> interface are refused by check_supported with a message naming what
// is not supported. Setup phase (allocates, throws FmuError). Thread-safety: pure functions,
// immutable results.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/fmu/model_description.hpp"

namespace hil::io::fmu {

struct MeClock {
  std::string name;
  std::uint32_t value_reference = 0;
  double interval = 0.0;  ///< [s] intervalDecimal, or intervalCounter / resolution
  double shift = 0.0;     ///< [s] the first tick: shiftDecimal (0 when absent)
};

struct MeModel {
  std::string model_identifier;  ///< of the <ModelExchange> interface
  std::size_t states = 0;
  std::size_t event_indicators = 0;
  std::vector<MeClock> clocks;
};

/// The model-exchange view of `md` (which has a <ModelExchange> interface); its clocks must
/// have passed check_supported.
[[nodiscard]] MeModel me_model(const ModelDescription& md);

/// Throws FmuError (naming `file`) for an FMU with only a <ScheduledExecution> interface
/// (`xml`: the model description's text). Fmu::load.
void check_interfaces(const ModelDescription& md, std::string_view xml, std::string_view file);

/// Throws FmuError (naming `file` and the clock's line) when `md` has a clock hilsim cannot tick
/// run as it would run (`as_model_exchange`: by model exchange, else by co-simulation): a clock
/// that is not a periodic input clock of constant interval, or clocks in co-simulation.
/// Fmu::instantiate (so `fmu info` still shows such an FMU).
void check_clocks(const ModelDescription& md, bool as_model_exchange, std::string_view file);

/// `fmu info`'s line: "model exchange: model identifier bouncing_ball, 2 continuous states, 1
/// event indicator, clocks: none", the clocks with what hilsim does with them.
[[nodiscard]] std::string describe_model_exchange(const ModelDescription& md);

}  // namespace hil::io::fmu
