#pragma once
// A run directory's text log — can.log, bus.log, fmu.log, commands.log (DESIGN.md §7) — as
// one writer keeps it: whole lines appended to a buffer, written to the file and made
// durable (fdatasync) at least every flush interval and when closed, so that after a SIGKILL
// everything up to the last flush is a valid log. The first write error is kept and reported
// (error()); the file then holds every whole line written before it (a full disk refuses a
// piece of lines whole), and every line after it is counted as dropped.
//
// Thread-safety: append, drop, flush and close from one writer thread at a time (a run's
// I/O thread, or the caller after the run); counters() and error() from any thread.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "io/record/byte_sink.hpp"

namespace hil::io::record {

struct LineLogCounters {
  std::uint64_t lines_written = 0;  ///< appended and not lost to a write error
  std::uint64_t lines_dropped = 0;  ///< lost: dropped before the log, or after a write error
  std::uint64_t lines_durable = 0;  ///< lines_written as of the last completed flush
  std::uint64_t flushes = 0;        ///< completed flushes (written and synced)
};

class LineLog {
 public:
  /// Writes to `sink` (a FileSink for a file), beginning with `header` (whole lines, not
  /// counted). `flush_interval`: the longest time between two flushes flush_if_due() lets pass.
  explicit LineLog(std::unique_ptr<ByteSink> sink, std::string_view header = {},
                   std::chrono::milliseconds flush_interval = std::chrono::seconds(1));
  /// Creates (or truncates) `path`; throws std::system_error naming it when it cannot.
  explicit LineLog(const std::filesystem::path& path, std::string_view header = {},
                   std::chrono::milliseconds flush_interval = std::chrono::seconds(1));
  ~LineLog();
  LineLog(const LineLog&) = delete;
  LineLog& operator=(const LineLog&) = delete;

  /// Writer: `count` whole lines, each ending in '\n'. After a write error they are dropped
  /// (and counted).
  void append(std::string_view lines, std::uint64_t count = 1);
  /// Writer: `count` lines that never reached the log (counted as dropped).
  void drop(std::uint64_t count) noexcept;
  /// Writer: flush() when the flush interval has passed since the last one.
  void flush_if_due();
  /// Writer: writes the buffer — in pieces of whole lines, so that a disk that fills keeps
  /// every line of the pieces it took — and syncs. After a write error it does nothing.
  void flush();
  /// Writer: flush() and close the file. Idempotent.
  void close();

  /// Writer: the log stopped at a write error (everything appended is dropped).
  [[nodiscard]] bool failed() const noexcept { return failed_; }
  /// Any thread.
  [[nodiscard]] LineLogCounters counters() const noexcept;
  /// Any thread: the first write error ("" if none).
  [[nodiscard]] std::string error() const;

 private:
  std::unique_ptr<ByteSink> sink_;
  std::chrono::milliseconds flush_interval_;
  std::chrono::steady_clock::time_point last_flush_ = std::chrono::steady_clock::now();
  std::string buffer_;
  std::size_t header_bytes_ = 0;  // the header, at the front of buffer_ until flushed
  bool failed_ = false;           // writer only
  // Statistics: relaxed, no other data is read on their strength
  std::atomic<std::uint64_t> written_{0}, dropped_{0}, durable_{0}, flushes_{0};
  mutable std::mutex error_mutex_;  // the writer sets, any thread reads
  std::string error_;
};

}  // namespace hil::io::record
