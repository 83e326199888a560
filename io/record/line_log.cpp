#include "io/record/line_log.hpp"

#include <algorithm>
#include <span>
#include <system_error>

namespace hil::io::record {

namespace {

constexpr std::size_t kPiece = std::size_t{64} * 1024;  // what one write(2) hands over at most

}  // namespace

LineLog::LineLog(std::unique_ptr<ByteSink> sink, std::string_view header,
                 std::chrono::milliseconds flush_interval)
    : sink_(std::move(sink)), flush_interval_(flush_interval), header_bytes_(header.size()) {
  buffer_.reserve(std::size_t{1} << 20);
  buffer_.append(header);
}

LineLog::LineLog(const std::filesystem::path& path, std::string_view header,
                 std::chrono::milliseconds flush_interval)
    : LineLog(std::make_unique<FileSink>(path), header, flush_interval) {}

LineLog::~LineLog() { close(); }

void LineLog::append(std::string_view lines, std::uint64_t count) {
  if (failed_) {
    drop(count);
    return;
  }
  buffer_.append(lines);
  written_.fetch_add(count, std::memory_order_relaxed);
}

void LineLog::drop(std::uint64_t count) noexcept {
  dropped_.fetch_add(count, std::memory_order_relaxed);
}

void LineLog::flush_if_due() {
  if (std::chrono::steady_clock::now() - last_flush_ >= flush_interval_) flush();
}

void LineLog::flush() {
  last_flush_ = std::chrono::steady_clock::now();
  if (failed_ || !sink_) return;
  std::size_t done = 0;  // bytes of buffer_ written: whole lines
  try {
    while (done < buffer_.size()) {
      std::size_t end = std::min(buffer_.size(), done + kPiece);
      if (end < buffer_.size()) end = buffer_.rfind('\n', end - 1) + 1;
      if (end <= done) end = buffer_.find('\n', done) + 1;  // a line longer than a piece
      sink_->write(
          std::span(reinterpret_cast<const std::uint8_t*>(buffer_.data()) + done, end - done));
      done = end;
    }
    buffer_.clear();
    header_bytes_ = 0;
    sink_->sync();
    durable_.store(written_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    flushes_.fetch_add(1, std::memory_order_relaxed);
  } catch (const std::system_error& e) {  // from now on every line is counted as dropped
    {
      const std::scoped_lock lock(error_mutex_);
      error_ = e.what();
    }
    failed_ = true;
    const auto lost = static_cast<std::uint64_t>(
        std::count(buffer_.begin() + static_cast<std::ptrdiff_t>(std::max(done, header_bytes_)),
                   buffer_.end(), '\n'));
    written_.fetch_sub(lost, std::memory_order_relaxed);
    dropped_.fetch_add(lost, std::memory_order_relaxed);
    durable_.store(written_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    buffer_.clear();
  }
}

void LineLog::close() {
  if (!sink_) return;
  flush();
  sink_.reset();
}

LineLogCounters LineLog::counters() const noexcept {
  return {.lines_written = written_.load(std::memory_order_relaxed),
          .lines_dropped = dropped_.load(std::memory_order_relaxed),
          .lines_durable = durable_.load(std::memory_order_relaxed),
          .flushes = flushes_.load(std::memory_order_relaxed)};
}

std::string LineLog::error() const {
  const std::scoped_lock lock(error_mutex_);
  return error_;
}

}  // namespace hil::io::record
