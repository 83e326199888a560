// libFuzzer target for the config loader: arbitrary bytes as a rig file and an overlay,
// through parsing, overlay merging and validation. Besides crashes and sanitizer reports it
// traps when the loader breaks its promises: an error without a message or a location that
// cannot exist, or settings accepted outside the ranges rt_core relies on.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target config_fuzz
//   cmake --build --preset fuzz --target run_config_fuzz     # 60 s with the seed corpus

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "config/executive_rules.hpp"
#include "config/rig/loader.hpp"
#include "rt_core/executive_spec.hpp"

namespace {

using hil::config::ConfigText;
using hil::config::LoadResult;

constexpr hil::config::Machine kMachine{.configured_cpus = 4};

void require(bool promise) {
  if (!promise) __builtin_trap();
}

void check_errors(const LoadResult& result) {
  for (const hil::config::ConfigError& error : result.errors) {
    require(!error.message.empty());
    require(error.line >= 0 && error.column >= 0);
    require(error.line > 0 || error.column == 0);
    require(!error.to_string().empty());
  }
}

void check_settings(const hil::config::RigSpec& s) {
  namespace rt = hil::rt;
  require(s.executive.period >= rt::kMinPeriod && s.executive.period <= rt::kMaxPeriod);
  require(s.rt.priority >= 0 && s.rt.priority <= hil::config::kMaxFifoPriority);
  require(!s.rt.cpu || (*s.rt.cpu >= 0 && *s.rt.cpu < kMachine.configured_cpus));
  const rt::OverrunPolicy& policy = s.executive.overrun;
  require(policy.catch_up_max >= 1 && policy.catch_up_max <= hil::config::kMaxCatchUpTicks);
  require(policy.stop_after_overruns >= 1 &&
          policy.stop_after_overruns <= rt::kOverrunRecordCapacity);
  require(policy.stop_after_window_ticks >= policy.stop_after_overruns);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Up to the first NUL byte: the base file; after it: an overlay.
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\0');
  const ConfigText layers[] = {
      {"base.pbtxt", std::string(input.substr(0, split))},
      {"overlay.pbtxt",
       split == std::string_view::npos ? "" : std::string(input.substr(split + 1))},
  };

  const LoadResult result = hil::config::load_rig_config_text(layers, kMachine);

  require(result.ok() == result.errors.empty());
  check_errors(result);
  if (result.ok()) check_settings(*result.settings);
  return 0;
}
