#pragma once
// The object ids a radar reports (docs/sensors.md "Radar"): a target keeps its id for as long
// as it stays in the list, cycle after cycle; a target that leaves the list loses its id, and
// an id set free is handed out again only after every id freed before it (a queue of the free
// ids 0…255, the 8-bit Obj_ID of hil_rigs/common/radar_objects.dbc), so a perception ECU does
// not mistake a new target for one it has just lost.
// Setup sizes it; assign() and end_cycle() allocate nothing. Thread-safety: one thread.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hil::models::radar {

inline constexpr std::size_t kIdCount = 256;  ///< Obj_ID: 8 bits

class TrackIds {
 public:
  /// Setup: ids for targets 0…targets−1 (the world's objects, by index).
  explicit TrackIds(std::size_t targets);

  /// Starts a cycle: every target is unlisted until assign() lists it again.
  void begin_cycle() noexcept;
  /// Target `target` is in this cycle's list: its id (kept from the last cycle, or the next
  /// free one). At most kIdCount targets per cycle have ids.
  [[nodiscard]] std::uint8_t assign(std::size_t target) noexcept;
  /// Ends the cycle: targets not listed since begin_cycle() lose their ids.
  void end_cycle() noexcept;

  /// The id target `target` has, or −1.
  [[nodiscard]] int id_of(std::size_t target) const noexcept { return id_[target]; }

 private:
  std::vector<std::int16_t> id_;               ///< per target: its id, or −1
  std::vector<std::uint8_t> listed_;           ///< per target: listed this cycle
  std::array<std::uint8_t, kIdCount> free_{};  ///< a ring: the free ids, freed longest ago first
  std::size_t free_head_ = 0, free_size_ = kIdCount;
};

}  // namespace hil::models::radar
