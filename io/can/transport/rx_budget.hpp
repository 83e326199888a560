#pragma once
// The receive budget of a CAN transport: at most this many frames handed to the tick per tick,
// so that no peer — a babbling ECU, a cannelloni flood — can stall the loop (issue 41,
// docs/can.md "Receive budget"). What does not fit a tick waits for the next one, as a burst
// (a cannelloni datagram of 100 frames) should; when the budget has been spent in
// kShedAfterTicks ticks in a row the overload is not a burst, and from then on (until as many
// ticks in a row leave some budget unspent), in every tick whose budget is spent, the
// transport drops what its link holds — a bounded amount per tick
// (each transport says how much), so the tick's work stays bounded too. Dropped frames are
// counted as DropReason::over_budget and never reach the tick (nor can.log, so a replay stays
// identical).
//
// The default is twice what the bus can carry in one tick period. Counting the shortest
// frame (ISO 11898-1, classic base format, no data): SOF 1 + identifier 11 + RTR 1 + IDE 1 +
// r0 1 + DLC 4 + CRC 15 + CRC delimiter 1 + ACK slot 1 + ACK delimiter 1 + EOF 7 +
// intermission 3 = 47 bits. Stuff bits only lengthen a frame, so they are not counted (the
// bound stays an upper bound), and a CAN FD frame has more bits, none faster than its data
// phase: bit_rate / 47 frames per second bounds any bus whose fastest bit is at bit_rate.
// Without a configured bit rate the bus is assumed the fastest there is, an 8 Mbit/s CAN FD
// data phase (ISO 11898-2:2016 SIC transceivers).
//
// Thread-safety: RxBudget belongs to its transport's polling thread (no atomics); the pure
// functions may be called anywhere.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>

namespace hil::io::can {

/// Bits of the shortest CAN frame on the wire, as counted above.
inline constexpr std::uint32_t kMinFrameBits = 47;
/// The bit rate assumed when a rig gives none: an 8 Mbit/s CAN FD data phase.
inline constexpr std::uint32_t kFastestBitRate = 8'000'000;
/// Largest receive budget a rig may set (frames per tick).
inline constexpr std::uint32_t kMaxRxFramesPerTick = 1'000'000;

/// Frames a bus whose fastest bit runs at `bit_rate` [bit/s] can carry at most in `period_s`.
[[nodiscard]] double bus_frames_per_period(double period_s, std::uint32_t bit_rate) noexcept;

/// The default receive budget: twice bus_frames_per_period, rounded up, at least 1. The
/// fastest bit is `data_bit_rate` if given (CAN FD), else `bit_rate`, else kFastestBitRate.
[[nodiscard]] std::size_t default_rx_frames_per_tick(
    double period_s, std::optional<std::uint32_t> bit_rate,
    std::optional<std::uint32_t> data_bit_rate) noexcept;

/// A transport's count of frames handed in the current tick. Polling thread only.
class RxBudget {
 public:
  static constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();
  /// Ticks in a row with the budget spent before the transport drops what it holds: a burst of
  /// up to about this many budgets is handed over as many ticks, not dropped.
  static constexpr std::size_t kShedAfterTicks = 4;

  /// `frames_per_tick` 0: no budget.
  explicit RxBudget(std::size_t frames_per_tick = 0) noexcept
      : per_tick_(frames_per_tick == 0 ? kUnlimited : frames_per_tick) {}

  /// Frames per tick; kUnlimited without a budget.
  [[nodiscard]] std::size_t per_tick() const noexcept { return per_tick_; }

  /// Frames tick `tick` may still be handed; a new tick starts a new count.
  [[nodiscard]] std::size_t allowance(std::int64_t tick) noexcept {
    if (tick != tick_) {
      const bool spent = handed_ >= per_tick_;
      spent_in_a_row_ = spent ? spent_in_a_row_ + 1 : 0;
      unspent_in_a_row_ = spent ? 0 : unspent_in_a_row_ + 1;
      if (unspent_in_a_row_ >= kShedAfterTicks) overloaded_ = false;
      tick_ = tick;
      handed_ = 0;
      shed_ = false;
    }
    return per_tick_ - handed_;
  }

  /// `n` frames (at most allowance()) were handed to the tick.
  void handed(std::size_t n) noexcept { handed_ += n; }

  /// True once per tick whose budget is spent, in an overload: from the kShedAfterTicks-th
  /// tick in a row with the budget spent until kShedAfterTicks ticks in a row without. The
  /// transport should then drop (a bounded amount of) what its link holds.
  [[nodiscard]] bool shed_now() noexcept {
    if (per_tick_ == kUnlimited || handed_ < per_tick_ || shed_) return false;
    if (spent_in_a_row_ + 1 >= kShedAfterTicks) overloaded_ = true;
    shed_ = overloaded_;
    return overloaded_;
  }

 private:
  std::size_t per_tick_;
  std::size_t handed_ = 0;
  std::size_t spent_in_a_row_ = 0;    // ticks just before tick_ that spent the whole budget
  std::size_t unspent_in_a_row_ = 0;  // … that did not
  bool overloaded_ = false;
  std::int64_t tick_ = std::numeric_limits<std::int64_t>::min();
  bool shed_ = false;
};

}  // namespace hil::io::can
