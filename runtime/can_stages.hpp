#pragma once
// The rig's CAN buses in the tick (io/can/mapping/can_bus.hpp): `rx` drains and decodes every
// bus into input channels (slot can_rx), `tx` encodes and sends what is due (slot can_tx).
// Thread-safety: build in the setup phase; the stages run on the RT thread.

#include <memory>
#include <vector>

#include "io/can/mapping/can_bus.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/stage.hpp"

namespace hil::runtime {

class CanStages {
 public:
  /// `buses` and `table` must outlive it.
  CanStages(const std::vector<std::unique_ptr<io::can::CanBus>>& buses,
            rt::ChannelTable& table) noexcept
      : buses_(buses), table_(table) {}
  CanStages(const CanStages&) = delete;
  CanStages& operator=(const CanStages&) = delete;

  [[nodiscard]] rt::Stage& rx() noexcept { return rx_; }
  [[nodiscard]] rt::Stage& tx() noexcept { return tx_; }

 private:
  void receive(std::int64_t tick) noexcept;
  void send(std::int64_t tick) noexcept;

  const std::vector<std::unique_ptr<io::can::CanBus>>& buses_;
  rt::ChannelTable& table_;
  rt::MethodStage<&CanStages::receive> rx_{*this};
  rt::MethodStage<&CanStages::send> tx_{*this};
};

}  // namespace hil::runtime
