#pragma once
// A CAN trace in memory, for playback: the frames of a candump log or ASC file in
// file order, each with its time since the first frame and the index of its interface.
// Compact: a 24-byte record per frame plus its payload in one byte pool, so a log of a few
// million classic frames takes about 32 bytes a frame (16 Mi frames, the limit, ≈ 0.5 GB).
//
// Thread-safety: built by one thread in the setup phase (add() allocates and throws);
// afterwards immutable, and the const accessors (noexcept, no allocation) are safe from any
// number of threads.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/can/can_frame.hpp"
#include "rt_core/time.hpp"

namespace hil::io::can {

struct TraceRecord {
  rt::Nanoseconds time_ns = 0;    ///< since the first frame of the trace (earlier: negative)
  std::uint32_t id = 0;           ///< CanFrame::id
  std::uint32_t data_offset = 0;  ///< first payload byte in the byte pool
  std::uint8_t length = 0;        ///< CanFrame::length
  std::uint8_t flags = 0;         ///< CanFrame::flags
  std::uint16_t interface = 0;    ///< index into Trace::interfaces()
};

class Trace {
 public:
  static constexpr std::size_t kMaxFrames = std::size_t{16} << 20;
  static constexpr std::size_t kMaxInterfaces = 65'536;

  /// Setup: appends a frame. `time_ns` is since the first frame (0 for the first).
  /// `interface` is interned. Throws std::length_error past kMaxFrames frames or
  /// kMaxInterfaces interface names, std::invalid_argument for an invalid frame.
  void add(rt::Nanoseconds time_ns, std::string_view interface, const CanFrame& frame);

  [[nodiscard]] std::size_t size() const noexcept { return records_.size(); }
  [[nodiscard]] bool empty() const noexcept { return records_.empty(); }
  [[nodiscard]] const TraceRecord& record(std::size_t i) const noexcept { return records_[i]; }
  /// The frame of record `i` (copies its payload; no allocation).
  [[nodiscard]] CanFrame frame(std::size_t i) const noexcept;
  /// Interface names in order of first appearance.
  [[nodiscard]] const std::vector<std::string>& interfaces() const noexcept { return interfaces_; }
  /// Frames of each interface (indexed like interfaces()).
  [[nodiscard]] const std::vector<std::size_t>& frames_per_interface() const noexcept {
    return frames_per_interface_;
  }

  /// Setup: the median of the positive gaps between consecutive frames (file order), or
  /// `fallback` when there is none (one frame, or every frame at the same time).
  [[nodiscard]] rt::Nanoseconds median_gap(rt::Nanoseconds fallback) const;

 private:
  std::vector<TraceRecord> records_;
  std::vector<std::uint8_t> bytes_;
  std::vector<std::string> interfaces_;
  std::vector<std::size_t> frames_per_interface_;
  std::size_t last_interface_ = 0;  // the previous add()'s interface: most lines repeat it
};

}  // namespace hil::io::can
