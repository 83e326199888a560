#include "rt_core/tick_plan.hpp"

namespace hil::rt {

Phase phase_of(Slot slot) noexcept {
  if (slot < Slot::peer_update) return Phase::read;
  if (slot < Slot::judge) return Phase::update;
  return Phase::write;
}

std::string_view to_string(Slot slot) noexcept {
  static constexpr std::array<std::string_view, kSlotCount> kNames{
      "peer_rx",     "can_rx", "bus_rx",  "scenario_events", "commands",    "fault_in",
      "peer_update", "models", "fmu",     "judge",           "fault_out",   "peer_tx",
      "can_tx",      "bus_tx", "publish", "record",          "tick_counter"};
  return kNames[static_cast<std::size_t>(slot)];
}

void TickPlan::add(Slot slot, std::string name, Task& task, std::uint32_t decimation,
                   std::uint32_t offset) {
  by_slot_[static_cast<std::size_t>(slot)].push_back(
      {.name = std::move(name),
       .task = &task,
       .decimation = decimation,
       .offset = offset,
       .phases = static_cast<std::uint8_t>(phase_of(slot))});
}

std::vector<TaskEntry> TickPlan::entries() const {
  std::vector<TaskEntry> out;
  for (const std::vector<TaskEntry>& slot : by_slot_)
    out.insert(out.end(), slot.begin(), slot.end());
  return out;
}

}  // namespace hil::rt
