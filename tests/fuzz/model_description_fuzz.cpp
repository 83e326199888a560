// libFuzzer target for the FMU model description reader (io/fmu/model_description.hpp):
// arbitrary bytes as modelDescription.xml. Besides crashes and sanitizer reports it traps when
// an error is not located ("fuzz.xml:LINE:COLUMN: ") or a description it accepts breaks its
// promises (FMI 2 or 3, a co-simulation interface with a model identifier, unique names).
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
    std::set<std::string> names;
    for (const auto& v : md.variables) require(names.insert(v.name).second && !v.name.empty());
  } catch (const hil::io::fmu::FmuError& e) {
    const std::string what = e.what();
    require(what.rfind("fuzz.xml:", 0) == 0);
  }
  return 0;
}
