#pragma once
// Where an MCAP writer's bytes go: a file (FileSink) or, in tests and benchmarks, anything
// that implements ByteSink. Thread-safety: one thread per sink.

#include <cstdint>
#include <filesystem>
#include <span>

namespace hil::io::record {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  ByteSink() = default;
  ByteSink(const ByteSink&) = delete;
  ByteSink& operator=(const ByteSink&) = delete;

  /// Appends all of `bytes`; throws std::system_error when it cannot (then nothing of
  /// `bytes` is appended, as far as the sink can take a partial write back).
  virtual void write(std::span<const std::uint8_t> bytes) = 0;
  /// Makes everything written so far durable (survives the process being killed, and with
  /// a file, a power loss); throws std::system_error when it cannot.
  virtual void sync() = 0;
};

/// A file created (or truncated) at `path`, written with write(2), synced with fdatasync(2); a
/// write the disk takes only in part (ENOSPC, EIO) is truncated away again.
class FileSink final : public ByteSink {
 public:
  /// Throws std::system_error naming the path when the file cannot be created.
  explicit FileSink(const std::filesystem::path& path);
  ~FileSink() override;

  void write(std::span<const std::uint8_t> bytes) override;
  void sync() override;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;  // bytes written whole
};

}  // namespace hil::io::record
