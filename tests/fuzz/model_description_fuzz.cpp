// libFuzzer target for the FMU model description reader (io/fmu/model_description.hpp):
// arbitrary bytes as modelDescription.xml. Besides crashes and sanitizer reports it traps when
// an error is not located ("fuzz.xml:LINE:COLUMN: ") or a description it accepts breaks its
// promises (FMI 2 or 3, a co-simulation or model-exchange interface with a model identifier,
// unique names, every type's C type known, arrays' sizes within bounds and recomputable, the
// model structure's indices in range, a derivative's state a variable, clocks with an
// interval variability).
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target run_model_description_fuzz

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "io/fmu/model_description.hpp"

namespace {

void require(bool promise) {
  if (!promise) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const hil::io::fmu::ModelDescription md =
        hil::io::fmu::parse_model_description(text, "fuzz.xml");
    require(md.fmi_version.starts_with("2.") || md.fmi_version.starts_with("3."));
    require(!md.co_simulation || !md.model_identifier.empty());
    require(!md.model_exchange || !md.me.model_identifier.empty());
    std::set<std::string> names;
    for (const auto& v : md.variables) {
      require(names.insert(v.name).second && !v.name.empty());
      require((v.type == hil::io::fmu::VariableType::other) ==
              (v.value_type == hil::io::fmu::ValueType::none));
      require(v.size <= (std::size_t{1} << 24U));
      require(md.size_of(v, {}) == v.size);
      require(!v.derivative_of || *v.derivative_of < md.variables.size());
      require(v.type != hil::io::fmu::VariableType::clock ||
              v.interval_variability != hil::io::fmu::ClockInterval::none);
    }
    for (const std::size_t i : md.outputs) require(i < md.variables.size());
    for (const std::size_t i : md.derivatives) require(i < md.variables.size());
    for (const std::size_t i : md.event_indicators) require(i < md.variables.size());
  } catch (const hil::io::fmu::FmuError& e) {
    const std::string what = e.what();
    require(what.rfind("fuzz.xml:", 0) == 0);
  }
  return 0;
}
