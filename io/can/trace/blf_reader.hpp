#pragma once
// Vector BLF (binary logging format), the traces CANoe/CANalyzer and python-can's BLFWriter
// write. No specification is published; the layout here is the one python-can and the
// vector_blf library read:
//
//   file header   "LOGG", header size (144), application and version bytes, file size,
//                 uncompressed size, object count, start and stop time (SYSTEMTIME)
//   objects       "LOBJ", header size, header version, object size, object type
//                 [+ v1/v2 header: flags (1 = 10 µs ticks, 2 = ns), …, timestamp (u64)]
//                 + body; each top-level object is followed by (object size % 4) pad bytes
//   LOG_CONTAINER (10): compression (0 none, 2 zlib), uncompressed size, then the data: a
//                 stream of objects that may continue in the next container
//
// Read: CAN_MESSAGE (1) and CAN_MESSAGE2 (86) (classic, RTR), CAN_FD_MESSAGE (100) and
// CAN_FD_MESSAGE_64 (101) (FD with BRS/ESI, or classic when EDL is clear), and the error
// objects CAN_ERROR (2), CAN_ERROR_EXT (73) and CAN_FD_ERROR_64 (104), which become the error
// frame an ASC ErrorFrame becomes (class CAN_ERR_BUSERROR, 8 zero bytes) and are counted.
// Every other object (markers, statistics, other buses) is counted and skipped. Channel N
// (1-based) is interface "can<N-1>", as for ASC.
//
// Bad input — a container that does not inflate, an object whose size or header cannot be,
// bytes where an object should start, a file that ends inside an object — is reported as a
// bad object "FILE: byte OFFSET: what" (the offset of the top-level object it was found in)
// and skipped: the reader moves on to the next "LOBJ" it finds. Objects and containers are
// limited to 64 MiB. Setup phase (allocates); never throws after construction.
// Thread-safety: one reader per thread; no shared state.

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "io/can/can_frame.hpp"

namespace hil::io::can {

struct BlfFrame {
  std::int64_t time_ns = 0;   ///< since the measurement start (the file header's start time)
  std::uint32_t channel = 0;  ///< 1-based, as in the file
  CanFrame frame;
};

class BlfReader {
 public:
  enum class Status : std::uint8_t { frame, bad_object, end };

  /// Reads the file header. Throws std::runtime_error "NAME: not a BLF file (…)" when it is
  /// none, or too short.
  BlfReader(std::istream& in, std::string name);

  /// The next frame, bad object, or the end.
  Status next();
  /// After frame.
  [[nodiscard]] const BlfFrame& frame() const noexcept { return frame_; }
  /// After bad_object: "NAME: byte OFFSET: what".
  [[nodiscard]] const std::string& describe_bad_object() const noexcept { return bad_; }

  [[nodiscard]] std::size_t frames() const noexcept { return frames_; }
  [[nodiscard]] std::size_t error_frames() const noexcept { return error_frames_; }
  /// Objects that are neither frames nor containers (markers, statistics, …).
  [[nodiscard]] std::size_t other_objects() const noexcept { return other_objects_; }
  [[nodiscard]] std::size_t containers() const noexcept { return containers_; }
  [[nodiscard]] std::size_t bad_objects() const noexcept { return bad_objects_; }

 private:
  enum class Parsed : std::uint8_t { frame, other, need_more, bad };
  /// Parses the object at pending_[pos_]; advances pos_ past it unless need_more.
  Parsed parse_pending();
  /// Moves pos_ to the next "LOBJ" after it (or the end); returns the bytes skipped.
  std::size_t skip_to_next_object();
  /// Reads the next top-level object into pending_ (a container's data inflated). False at
  /// the end of the file; sets bad_ (and returns true) when it was bad.
  bool read_top_level(bool& bad);
  /// Sets bad_ ("NAME: byte OFFSET: what"), counts it; returns true.
  bool fail(std::string_view what);
  /// A frame (frame_ set), another object (counted), or a bad one.
  Parsed decode_object(std::uint32_t type, const std::uint8_t* body, std::size_t size,
                       std::int64_t time_ns);

  std::istream& in_;
  std::string name_;
  std::vector<std::uint8_t> pending_;  ///< object stream from containers, from pos_ on unread
  std::size_t pos_ = 0;
  std::uint64_t object_offset_ = 0;  ///< file offset of the top-level object being read
  std::uint64_t offset_ = 0;         ///< file offset of the next top-level object
  BlfFrame frame_;
  std::string bad_;
  std::size_t frames_ = 0;
  std::size_t error_frames_ = 0;
  std::size_t other_objects_ = 0;
  std::size_t containers_ = 0;
  std::size_t bad_objects_ = 0;
};

}  // namespace hil::io::can
