#pragma once
// The faults on one CAN message, as the bus sees them (io/can/mapping/message_fault_hook.hpp):
// signal, counter, CRC, DLC and bit faults shape the frame; drop, delay, cycle and duplicate
// decide its fate. RT methods are noexcept and allocate nothing; the delay ring is sized at
// setup.

#include <cstdint>
#include <utility>
#include <vector>

#include "io/can/mapping/can_bus.hpp"
#include "io/can/mapping/message_fault_hook.hpp"
#include "runtime/faults/fault_state.hpp"

namespace hil::runtime::detail {

class MessageFaults final : public io::can::MessageFaultHook {
 public:
  static constexpr std::size_t kMaxFaults = 16;  ///< faults on one message at once

  /// The hook of message `index` that `bus` sends (`tx`) or receives; `held_capacity`:
  /// frames a delay fault may hold at once.
  MessageFaults(io::can::CanBus* bus, bool tx, std::size_t index, std::size_t held_capacity,
                std::uint64_t seed);
  /// RT (or setup): puts the hook on its bus, once.
  void install() noexcept;
  /// RT (or setup): one more fault on the message; false when kMaxFaults are there.
  bool add(Fault& fault) noexcept;
  [[nodiscard]] bool has_room() const noexcept { return faults_.size() < kMaxFaults; }
  [[nodiscard]] std::size_t held_capacity() const noexcept { return held_.size(); }

  [[nodiscard]] std::int64_t cycle_ticks() const noexcept override;
  void before_encode(std::span<double> physical) noexcept override;
  [[nodiscard]] std::uint32_t counter(std::uint32_t correct,
                                      std::uint32_t modulo) noexcept override;
  [[nodiscard]] bool data_id(std::uint16_t& id) noexcept override;
  void after_crc(io::can::CanFrame& frame, std::int32_t crc_byte) noexcept override;
  [[nodiscard]] io::can::FrameFate fate(std::int64_t tick,
                                        const io::can::CanFrame& frame) noexcept override;
  [[nodiscard]] bool due(std::int64_t tick, io::can::CanFrame& out) noexcept override;

 private:
  /// The first active fault of `op` that may still act, or nullptr.
  [[nodiscard]] Fault* acting(config::MessageOp op) const noexcept;

  io::can::CanBus* bus_;
  bool tx_;
  std::size_t index_;
  bool installed_ = false;
  std::vector<Fault*> faults_;  ///< capacity kMaxFaults
  // counter: what was sent, and how it continues after a fault
  std::uint32_t shift_ = 0, last_sent_ = 0, last_valid_ = 0, frozen_ = 0;
  bool counter_faulted_ = false;
  config::CounterContinue continue_ = config::CounterContinue::correct;
  // crc: the byte of the last unfaulted frame (freeze)
  std::uint8_t last_crc_ = 0;
  bool crc_faulted_ = false;
  std::uint8_t frozen_crc_ = 0;
  // signal: the value a fault wrote, to restore an unbound signal after it
  double signal_written_ = 0.0, signal_original_ = 0.0;
  bool signal_wrote_ = false;
  std::size_t signal_index_ = 0;
  // delay: frames held, oldest first (a ring)
  std::vector<std::pair<std::int64_t, io::can::CanFrame>> held_;
  std::size_t held_head_ = 0, held_size_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace hil::runtime::detail
