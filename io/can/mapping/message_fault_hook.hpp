#pragma once
// What a fault engine does to one CAN message's frames (docs/faults.md): the bus calls these
// on the RT thread, in the order a frame is built — cycle, signals, alive counter, CRC, then
// what becomes of the frame. Set at setup (CanBus::set_fault_hook); noexcept, no allocation.

#include <cstdint>
#include <span>

#include "io/can/can_frame.hpp"

namespace hil::io::can {

enum class FrameFate : std::uint8_t {
  pass,   ///< sent (received) as it is
  drop,   ///< lost: not sent (not taken), not in can.log
  held,   ///< kept by the hook; due() hands it back later
  twice,  ///< sent twice in this tick
};

class MessageFaultHook {
 public:
  virtual ~MessageFaultHook() = default;
  /// tx: the message's cycle in ticks while a cycle fault holds, else 0 (its own cycle).
  [[nodiscard]] virtual std::int64_t cycle_ticks() const noexcept = 0;
  /// tx: the signals' physical values, before encoding.
  virtual void before_encode(std::span<double> physical) noexcept = 0;
  /// tx: the alive counter to send instead of `correct` (the bus's count mod `modulo`).
  [[nodiscard]] virtual std::uint32_t counter(std::uint32_t correct,
                                              std::uint32_t modulo) noexcept = 0;
  /// tx, AUTOSAR E2E: true and the data id to protect with instead, while a fault says so.
  [[nodiscard]] virtual bool data_id(std::uint16_t& id) noexcept = 0;
  /// tx: the finished frame (CRC computed at byte `crc_byte`, −1: none): CRC, DLC, bits.
  virtual void after_crc(CanFrame& frame, std::int32_t crc_byte) noexcept = 0;
  /// tx and rx: what becomes of the frame at `tick`.
  [[nodiscard]] virtual FrameFate fate(std::int64_t tick, const CanFrame& frame) noexcept = 0;
  /// tx and rx: a held frame due at `tick` (call until false).
  [[nodiscard]] virtual bool due(std::int64_t tick, CanFrame& out) noexcept = 0;
};

}  // namespace hil::io::can
