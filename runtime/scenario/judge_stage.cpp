#include "runtime/scenario/judge_stage.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <variant>

namespace hil::runtime {

namespace {

/// The first dtc gate that names `code`, for messages.
std::string gate_of(const config::ScenarioSpec& scenario, std::uint32_t code) {
  for (const config::GateSpec& g : scenario.gates) {
    const auto* d = std::get_if<config::DtcGate>(&g.check);
    if (d != nullptr && d->code == code) return g.name;
  }
  return {};
}

/// The status channel of the DTC with `code` in the rig's diagnostics.
rt::ChannelId dtc_channel(const config::ScenarioSpec& scenario, const rt::ChannelTable& table,
                          const std::optional<config::DiagnosticsSpec>& diagnostics,
                          std::uint32_t code) {
  const std::string gate = gate_of(scenario, code);
  if (!diagnostics) {
    throw std::invalid_argument(fmt::format(
        "gate \"{}\": DTC {:06X} cannot be read: the rig has no diagnostics block", gate, code));
  }
  const auto dtc = std::ranges::find(diagnostics->dtcs, code, &config::DtcSpec::code);
  if (dtc == diagnostics->dtcs.end()) {
    std::vector<std::string> known;
    for (const config::DtcSpec& d : diagnostics->dtcs) {
      known.push_back(fmt::format("{:06X} {}", d.code, d.name));
    }
    throw std::invalid_argument(
        fmt::format("gate \"{}\": DTC {:06X} is not in the rig's diagnostics block (its DTCs: {})",
                    gate, code, fmt::join(known, ", ")));
  }
  const std::string channel = fmt::format("diag.dtc.{}.status", dtc->name);
  const std::optional<rt::ChannelId> id = table.find(channel);
  if (!id) {
    throw std::invalid_argument(
        fmt::format("gate \"{}\": DTC {:06X}'s status channel {} is not in the rig's table (no "
                    "UDS tester reads it)",
                    gate, code, channel));
  }
  return *id;
}

}  // namespace

JudgeStage::JudgeStage(const config::ScenarioSpec& scenario, const rt::ChannelTable& table,
                       const std::optional<config::DiagnosticsSpec>& diagnostics)
    : judge_(scenario),
      table_(table),
      x_(table.resolve("vehicle.body.position.x")),
      y_(table.resolve("vehicle.body.position.y")),
      yaw_(table.resolve("vehicle.body.yaw")),
      speed_(table.resolve("vehicle.body.forward_speed")) {
  for (const std::uint32_t code : judge_.dtc_codes()) {
    dtc_channels_.push_back(dtc_channel(scenario, table, diagnostics, code));
  }
  dtc_status_.assign(dtc_channels_.size(), -1.0);
  // The wheels' soft-soil figures, for the not_bogged_down gates
  const auto ends_with = [](std::string_view name, std::string_view end) {
    return name.size() >= end.size() && name.substr(name.size() - end.size()) == end;
  };
  for (const rt::ChannelSpec& c : table.specs()) {
    if (!c.name.starts_with("vehicle.wheel.")) continue;
    if (ends_with(c.name, ".sinkage")) sinkage_.push_back(table.resolve(c.name));
    if (ends_with(c.name, ".slip")) slip_.push_back(table.resolve(c.name));
  }
}

void JudgeStage::run(const rt::TickContext& c) noexcept {
  for (std::size_t k = 0; k < dtc_channels_.size(); ++k)
    dtc_status_[k] = table_.get(dtc_channels_[k]);
  double sinkage = std::numeric_limits<double>::quiet_NaN();
  for (const rt::ChannelId id : sinkage_) {
    const double z = table_.get(id);
    sinkage = std::isnan(sinkage) ? z : std::max(sinkage, z);
  }
  double slip = std::numeric_limits<double>::quiet_NaN();
  if (!slip_.empty()) {
    slip = 0.0;
    for (const rt::ChannelId id : slip_) slip += table_.get(id);
    slip /= static_cast<double>(slip_.size());
  }
  judge_.observe({.time = static_cast<double>(c.time) / static_cast<double>(rt::kSecond),
                  .x = table_.get(x_),
                  .y = table_.get(y_),
                  .yaw = table_.get(yaw_),
                  .speed = table_.get(speed_),
                  .dtc_status = dtc_status_,
                  .sinkage = sinkage,
                  .slip = slip});
}

}  // namespace hil::runtime
