#pragma once
// Checks a whole rig configuration: every value in range, fields consistent with each other.

#include <vector>

#include "config/rig.pb.h"
#include "config/rig/host_facts.hpp"
#include "config/text/config_error.hpp"
#include "config/text/field_rules.hpp"
#include "config/text/source_map.hpp"

namespace hil::config {

/// The range of every integer field of a RigConfig that has one. Thread-safe.
[[nodiscard]] std::vector<IntegerRange> rig_ranges(const Machine& machine = this_machine());

/// Every problem of `config`, in field order; empty when it is valid. Errors point where
/// `sources` says each value was written (nowhere for a default SourceMap, e.g. for a message
/// built in code). Pure: reads only its arguments. Setup phase; thread-safe.
[[nodiscard]] ConfigErrors validate(const RigConfig& config, const SourceMap& sources = {},
                                    const Machine& machine = this_machine());

}  // namespace hil::config
