#pragma once
// candump-style id filters (`hilsim play --ids`): comma-separated items
//   ID:MASK   passes a frame when (can_id & MASK) == (ID & MASK)
//   ID~MASK   passes when they differ
//   j or J    join: every item must pass (AND) instead of any one (OR)
// in hex, as candump(1) takes them. can_id is the frame's id as Linux composes it: the id with
// CAN_EFF_FLAG (0x80000000) for a 29-bit frame and CAN_RTR_FLAG (0x40000000) for a remote
// request; an ID written with 8 digits has CAN_EFF_FLAG set, so a MASK that includes
// 0x80000000 tells 11-bit from 29-bit ids. As in candump, CAN_ERR_FLAG is cleared from the
// masks and error frames pass no filter (candump needs its #ERRMASK for them); with no items
// at all every frame passes, error frames included.
//
// Thread-safety: parse() in the setup phase; passes() is const, noexcept, allocation-free and
// safe from any number of threads.

#include <cstdint>
#include <string_view>
#include <vector>

#include "io/can/can_frame.hpp"

namespace hil::io::can {

class FrameFilter {
 public:
  struct Item {
    std::uint32_t id = 0;    ///< with CAN_EFF_FLAG for an 8-digit ID
    std::uint32_t mask = 0;  ///< CAN_ERR_FLAG cleared
    bool inverted = false;   ///< '~'
  };

  /// A filter that passes every frame.
  FrameFilter() = default;

  /// Parses "ID:MASK,ID~MASK,…[,j]". Throws std::invalid_argument naming the item, its
  /// 1-based column in `text` and the expected form.
  [[nodiscard]] static FrameFilter parse(std::string_view text);

  [[nodiscard]] bool passes(const CanFrame& frame) const noexcept;
  [[nodiscard]] bool empty() const noexcept { return items_.empty(); }
  [[nodiscard]] const std::vector<Item>& items() const noexcept { return items_; }
  [[nodiscard]] bool joined() const noexcept { return joined_; }

 private:
  std::vector<Item> items_;
  bool joined_ = false;
};

/// The frame's id as Linux's struct can_frame carries it (EFF/RTR/ERR flag bits included).
[[nodiscard]] constexpr std::uint32_t linux_can_id(const CanFrame& frame) noexcept {
  std::uint32_t id = frame.id;
  if (frame.extended()) id |= 0x8000'0000U;
  if (frame.remote()) id |= 0x4000'0000U;
  if (frame.error()) id |= 0x2000'0000U;
  return id;
}

}  // namespace hil::io::can
