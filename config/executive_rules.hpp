#pragma once
// Valid values of the `executive` block (config/executive.proto documents the same ranges).

#include <cstdint>
#include <string_view>
#include <vector>

#include "config/executive.pb.h"
#include "config/rig/host_facts.hpp"
#include "config/text/config_error.hpp"
#include "config/text/field_rules.hpp"
#include "config/text/source_map.hpp"

namespace hil::config {

inline constexpr std::int64_t kMaxFifoPriority = 99;  // sched_get_priority_max(SCHED_FIFO)
inline constexpr std::int64_t kMaxCatchUpTicks = 1000;

/// The range of every integer field of an Executive found at `prefix` ("executive").
/// The CPU range depends on `machine`. Thread-safe.
[[nodiscard]] std::vector<IntegerRange> executive_ranges(std::string_view prefix,
                                                         const Machine& machine);

/// Rules between fields, with defaults applied: stop_after.window_ticks >= overruns.
/// Thread-safe.
[[nodiscard]] ConfigErrors check_executive_consistency(const Executive& executive,
                                                       std::string_view prefix,
                                                       const SourceMap& sources);

}  // namespace hil::config
