#pragma once
// Writes Vector BLF (blf_format.hpp) as CANoe/CANalyzer, python-can and our BlfReader read it:
// a 144-byte file header (start and stop time as local SYSTEMTIME, as Vector's tools write
// them; sizes and the object count filled in by finish()), then zlib-compressed log containers
// of 128 KiB of objects each, objects running on from one container into the next. Frames are
// CAN_MESSAGE (classic, RTR; Tx direction flag), CAN_FD_MESSAGE (FD with BRS/ESI) and
// CAN_ERROR_EXT (error frames), each with a v1 header and a nanosecond timestamp since the
// start. Setup-phase / offline code (allocates; throws std::runtime_error when the stream
// fails). Thread-safety: one writer per thread.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <vector>

#include "io/can/can_frame.hpp"

namespace hil::io::can {

class BlfWriter {
 public:
  static constexpr std::size_t kContainerBytes = 128 * 1024;

  /// Writes a placeholder header to `out` (seekable: finish() rewrites it). `start_epoch_ns`
  /// is the measurement start (UTC ns since 1970), the header's start time.
  BlfWriter(std::ostream& out, std::int64_t start_epoch_ns);

  /// Appends a frame `time_ns` after the start (negative times are written as 0) on 1-based
  /// `channel`. Throws std::invalid_argument for an invalid frame or channel 0.
  void add(std::int64_t time_ns, std::uint16_t channel, const CanFrame& frame, bool transmitted);

  /// Writes the last container and the final header. Throws std::runtime_error when the stream
  /// failed at any point.
  void finish();

  [[nodiscard]] std::uint32_t objects() const noexcept { return objects_; }

 private:
  void flush_container(std::size_t bytes);

  std::ostream& out_;
  std::int64_t start_epoch_ns_;
  std::int64_t last_time_ns_ = 0;
  std::vector<std::uint8_t> pending_;     ///< objects not yet in a container
  std::vector<std::uint8_t> compressed_;  ///< scratch for one container
  std::uint64_t file_size_ = 0;
  std::uint64_t uncompressed_size_ = 0;
  std::uint32_t objects_ = 0;
};

}  // namespace hil::io::can
