#include "runtime/can_stages.hpp"

namespace hil::runtime {

void CanStages::receive(std::int64_t tick) noexcept {
  for (const auto& bus : buses_) bus->read(tick, table_);
}

void CanStages::send(std::int64_t tick) noexcept {
  for (const auto& bus : buses_) bus->write(tick, table_);
}

}  // namespace hil::runtime
