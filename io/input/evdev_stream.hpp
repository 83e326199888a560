#pragma once
// The bytes of a Linux input device as records (<linux/input.h> struct input_event: time, type,
// code, value — 24 bytes on a 64-bit machine), from reads of any size: a record split across
// reads is put together; what is not a record of the driver's kinds is counted, never trusted.
// EV_SYN, EV_MSC pass as kinds to skip; EV_ABS an axis; EV_KEY a button (0 up, 1 down, 2
// repeat); any other type, or an EV_KEY value outside 0..2, is garbage. A stream that ends
// inside a record (a writer that closed mid-record) counts a short read.
// Thread-safety: a value type; one reader thread.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace hil::io::input {

struct EvdevEvent {
  enum class Kind : std::uint8_t { axis, button, sync, dropped, other };
  Kind kind = Kind::other;
  std::uint16_t code = 0;
  std::int32_t value = 0;
};

struct EvdevStreamCounters {
  std::uint64_t events = 0;       ///< records of a known type
  std::uint64_t garbage = 0;      ///< records of an unknown type or value
  std::uint64_t short_reads = 0;  ///< streams that ended inside a record
  std::uint64_t dropped = 0;      ///< SYN_DROPPED: the kernel's buffer overran
};

class EvdevStream {
 public:
  /// The size of one record.
  static std::size_t record_size() noexcept;

  /// Takes `bytes` as read; calls `on_event` for each whole record of a known type.
  void feed(std::span<const std::uint8_t> bytes,
            const std::function<void(const EvdevEvent&)>& on_event);
  /// The stream ended (EOF, the device closed): a partial record left is a short read.
  void end() noexcept;

  [[nodiscard]] const EvdevStreamCounters& counters() const noexcept { return counters_; }

 private:
  std::vector<std::uint8_t> pending_;  ///< the start of a record split across reads
  EvdevStreamCounters counters_;
};

}  // namespace hil::io::input
