#pragma once
// Internal to config/: what checks a fault block (config/fault_spec.cpp) and its message
// target (config/message_fault_spec.cpp) share — the located errors, the rig's channels and
// buses to check names against, the time limits.

#include "config/fault.pb.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <vector>

#include "config/fault_spec.hpp"
#include "config/text/suggest.hpp"

namespace hil::config::detail {

inline constexpr double kMaxTime = 86'400.0;  // [s]
inline constexpr double kMaxDelay = 10.0;     // [s]

class FaultChecker {
 public:
  FaultChecker(const rt::ChannelTable& table, const std::vector<std::string>& extra,
               const std::vector<io::can::CanBusSpec>& can, const SourceMap& sources,
               ConfigErrors& errors)
      : can_(can), sources_(sources), errors_(errors) {
    for (const rt::ChannelSpec& s : table.specs()) channels_.push_back(s.name);
    channels_.insert(channels_.end(), extra.begin(), extra.end());
  }

  void fail(const std::string& field, std::string message) const {
    errors_.push_back(sources_.error(field, std::move(message)));
  }
  bool in_range(const std::string& field, double v, double lo, double hi,
                std::string_view what) const {
    if (std::isfinite(v) && v >= lo && v <= hi) return true;
    fail(field, fmt::format("{} is out of range; expected {}", v, what));
    return false;
  }
  void channel(const std::string& field, const std::string& name) const {
    if (std::find(channels_.begin(), channels_.end(), name) != channels_.end()) return;
    const std::optional<std::string> near = closest_name(name, channels_);
    fail(field, fmt::format("\"{}\" is not a channel of the rig{}; expected one of its channels "
                            "(hilsim check --print)",
                            name, near ? fmt::format(" (did you mean {}?)", *near) : ""));
  }
  [[nodiscard]] const io::can::CanBusSpec* bus(const std::string& field,
                                               const std::string& name) const {
    std::vector<std::string> names;
    for (const io::can::CanBusSpec& b : can_) {
      if (b.name == name) return &b;
      names.push_back(b.name);
    }
    const std::optional<std::string> near = closest_name(name, names);
    fail(field, fmt::format("\"{}\" is not a CAN bus of the rig{}; expected {}", name,
                            near ? fmt::format(" (did you mean {}?)", *near) : "",
                            names.empty() ? "a rig with a can block"
                                          : fmt::format("one of {}", fmt::join(names, ", "))));
    return nullptr;
  }

  FaultCondition condition(const Fault::Condition& c, const std::string& at) const {
    FaultCondition out{.channel = c.channel(), .for_s = c.for_s()};
    channel(at + ".channel", c.channel());
    switch (c.test_case()) {
      case Fault::Condition::kAbove:
        out.test = FaultCondition::Test::above;
        out.value = c.above();
        break;
      case Fault::Condition::kBelow:
        out.test = FaultCondition::Test::below;
        out.value = c.below();
        break;
      case Fault::Condition::kCrosses:
        out.test = FaultCondition::Test::crosses;
        out.value = c.crosses();
        break;
      case Fault::Condition::TEST_NOT_SET:
        fail(at, "no test; expected above, below or crosses");
        break;
    }
    in_range(at, out.value, -1e12, 1e12, "a finite number");
    in_range(at + ".for_s", out.for_s, 0.0, kMaxTime, ">= 0 (s)");
    return out;
  }

 private:
  const std::vector<io::can::CanBusSpec>& can_;
  const SourceMap& sources_;
  ConfigErrors& errors_;
  std::vector<std::string> channels_;
};

/// A message fault (config/fault.proto MessageFault) at `at`, checked against the rig's buses.
[[nodiscard]] MessageFaultSpec message_fault(const Fault::MessageFault& m, const std::string& at,
                                             const FaultChecker& check);

}  // namespace hil::config::detail
