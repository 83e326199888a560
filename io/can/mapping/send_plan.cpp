#include "io/can/mapping/send_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace hil::io::can {
namespace {

struct SendTypeName {
  std::string_view name;  ///< lower case, letters and digits only
  bool cyclic, on_change, if_active;
  bool none = false;  ///< "no send type": sent when a signal changes, never on its own
};

// Vector's lists (CANoe's interaction layer, both spellings), AUTOSAR-style and production
// names (docs/can.md "Send types"). "Spontaneous" is Vector's word for "on change".
constexpr std::array<SendTypeName, 33> kSendTypes{{
    {"cyclic", true, false, false},
    {"fixedperiodic", true, false, false},
    {"periodic", true, false, false},
    {"cyclicwithrepeatondemand", true, false, false},
    {"spontaneous", false, true, false},
    {"spontan", false, true, false},
    {"event", false, true, false},
    {"onchange", false, true, false},
    {"onwrite", false, true, false},
    {"triggered", false, true, false},
    {"spontaneouswithdelay", false, true, false},
    {"spontanwithdelay", false, true, false},
    {"spontaneouswithrepetition", false, true, false},
    {"onwritewithrepetition", false, true, false},
    {"onchangewithrepetition", false, true, false},
    {"cyclicandspontaneous", true, true, false},
    {"cyclicandspontan", true, true, false},
    {"cyclicandspontaneouswithdelay", true, true, false},
    {"cyclicandspontanwithdelay", true, true, false},
    {"eventperiodic", true, true, false},
    {"cyclicandtriggered", true, true, false},
    {"cyclicandonchange", true, true, false},
    {"cyclicandonwrite", true, true, false},
    {"ifactive", false, false, true},
    {"cyclicifactive", false, false, true},
    {"cyclicifactivefast", false, false, true},
    {"cyclicifactiveandspontaneouswd", false, true, true},
    {"cyclicifactiveandspontanwd", false, true, true},
    {"cyclicifactiveandspontaneous", false, true, true},
    {"nomsgsendtype", false, false, false, true},
    {"none", false, false, false, true},
    {"notused", false, false, false, true},
    {"vectorleerstring", false, false, false, true},
}};

std::string normalized(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

std::optional<double> positive(const dbc::Database& db, const dbc::Attributes& on,
                               std::string_view name) {
  const std::optional<double> v = db.number_attribute(on, name);
  return v && *v > 0.0 ? v : std::nullopt;
}

std::string ms(double v) { return fmt::format("{:g} ms", v); }

}  // namespace

std::string SendPlan::describe() const {
  std::string out;
  const auto add = [&](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
  if (cyclic) add(fmt::format("cyclic {}", ms(*cycle_ms)));
  if (if_active)
    add(fmt::format("every {} while active", ms(fast_cycle_ms.value_or(cycle_ms.value_or(0.0)))));
  if (on_change) {
    add(cyclic || if_active ? "on change"
                            : (at_start ? "at the start and on change" : "on change only"));
  }
  if (repetitions > 0) {
    const double every = fast_cycle_ms.value_or(min_gap_ms);
    add(fmt::format("{} repetition{} every {}", repetitions, repetitions == 1 ? "" : "s",
                    every > 0.0 ? ms(every) : std::string("tick")));
  }
  if (min_gap_ms > 0.0) add(fmt::format("gap {}", ms(min_gap_ms)));
  if (start_delay_ms > 0.0) add(fmt::format("start delay {}", ms(start_delay_ms)));
  if (!send_type.empty()) {
    out += fmt::format(" (GenMsgSendType \"{}\"{})", send_type,
                       send_type_is_default ? ", the default" : "");
  }
  return out;
}

std::optional<SendPlan> plan_sending(const dbc::Database& db, const dbc::Message& message,
                                     std::string& problem) {
  SendPlan plan;
  const dbc::Attributes& on = message.attributes;
  plan.cycle_ms = positive(db, on, "GenMsgCycleTime");
  plan.fast_cycle_ms = positive(db, on, "GenMsgCycleTimeFast");
  plan.start_delay_ms = positive(db, on, "GenMsgStartDelayTime").value_or(0.0);
  plan.min_gap_ms = positive(db, on, "GenMsgDelayTime").value_or(0.0);
  plan.repetitions = static_cast<std::uint32_t>(
      std::min(positive(db, on, "GenMsgNrOfRepetition").value_or(0.0), 1e6));
  plan.send_type = db.text_attribute(on, "GenMsgSendType").value_or(std::string());
  plan.send_type_is_default = !on.contains("GenMsgSendType");

  if (plan.send_type.empty()) {  // no send type: cyclic if it has a cycle, else on change
    plan.cyclic = plan.cycle_ms.has_value();
    plan.on_change = !plan.cyclic;
    plan.at_start = false;  // neither cycle nor send type: on change only
    return plan;
  }
  const std::string key = normalized(plan.send_type);
  const auto* const known = std::find_if(kSendTypes.begin(), kSendTypes.end(),
                                         [&](const SendTypeName& t) { return t.name == key; });
  if (known == kSendTypes.end()) {
    problem = fmt::format(
        "{}:{}: BO_ '{}': GenMsgSendType \"{}\" is not a send type hilsim knows; expected one "
        "of cyclic (Cyclic, FixedPeriodic), on change (Spontaneous, Event, OnChange, "
        "…WithRepetition, …WithDelay), cyclic and on change (CyclicAndSpontaneous, "
        "EventPeriodic), if active (IfActive, CyclicIfActive…) or none (NoMsgSendType)",
        db.file_name, message.location.line, message.name, plan.send_type);
    return std::nullopt;
  }
  plan.cyclic = known->cyclic;
  plan.on_change = known->on_change || (!known->cyclic && !known->if_active);
  plan.if_active = known->if_active;
  plan.at_start = !known->none && !known->if_active;  // if active: only when active
  // Repetitions belong to the …WithRepetition types, or to a message that sets its own count
  if (key.find("repetition") == std::string::npos && !on.contains("GenMsgNrOfRepetition")) {
    plan.repetitions = 0;
  }
  const bool needs_cycle = plan.cyclic || (plan.if_active && !plan.fast_cycle_ms);
  if (needs_cycle && !plan.cycle_ms) {
    if (!plan.send_type_is_default) {
      problem = fmt::format("{}:{}: BO_ '{}': GenMsgSendType \"{}\" but no GenMsgCycleTime{}",
                            db.file_name, message.location.line, message.name, plan.send_type,
                            plan.if_active ? " or GenMsgCycleTimeFast" : "");
      return std::nullopt;
    }
    plan.cyclic = plan.if_active = false;  // only the default says cyclic: on change only
    plan.on_change = true;
    plan.at_start = false;
  }
  return plan;
}

}  // namespace hil::io::can
