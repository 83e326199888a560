#include "runtime/tick_plan.hpp"

namespace hil::runtime {

namespace {

struct SlotInfo {
  std::string_view name;
  rt::Phase phase;
};

/// Every slot's name and phase, in Slot's order.
constexpr std::array<SlotInfo, kSlotCount> kSlots{{
    {"peer_rx", rt::Phase::read},       {"can_rx", rt::Phase::read},
    {"bus_rx", rt::Phase::read},        {"scenario_events", rt::Phase::read},
    {"commands", rt::Phase::read},      {"fault_in", rt::Phase::read},
    {"peer_update", rt::Phase::update}, {"models", rt::Phase::update},
    {"fmu", rt::Phase::update},         {"world", rt::Phase::update},
    {"sensors", rt::Phase::update},     {"judge", rt::Phase::write},
    {"fault_out", rt::Phase::write},    {"peer_tx", rt::Phase::write},
    {"can_tx", rt::Phase::write},       {"bus_tx", rt::Phase::write},
    {"publish", rt::Phase::write},      {"record", rt::Phase::write},
    {"tick_counter", rt::Phase::write},
}};

}  // namespace

rt::Phase phase_of(Slot slot) noexcept { return kSlots[static_cast<std::size_t>(slot)].phase; }

std::string_view to_string(Slot slot) noexcept {
  return kSlots[static_cast<std::size_t>(slot)].name;
}

void TickPlan::add(Slot slot, std::string name, rt::Stage& stage, std::uint32_t decimation,
                   std::uint32_t offset) {
  by_slot_[static_cast<std::size_t>(slot)].push_back({.name = std::move(name),
                                                      .stage = &stage,
                                                      .phase = phase_of(slot),
                                                      .decimation = decimation,
                                                      .offset = offset});
}

std::vector<rt::StageEntry> TickPlan::entries() const {
  std::vector<rt::StageEntry> out;
  for (const std::vector<rt::StageEntry>& slot : by_slot_)
    out.insert(out.end(), slot.begin(), slot.end());
  return out;
}

}  // namespace hil::runtime
