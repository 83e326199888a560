#pragma once
// Seqlock: one writer publishes, any number of readers copy a consistent view, nobody waits
// on the writer's side. The protected data are std::atomic words, stored with release by the
// writer (seqlock_store) and loaded with acquire by readers (seqlock_load): a reader that
// sees any word of a write in progress then sees the odd counter on its re-check and retries.
// No data race in the C++ memory model, no standalone fence (which TSan cannot check), and
// on x86 every such access is a plain mov (Boehm, "Can seqlocks get along with programming
// language memory models?", MSPC 2012, §5).

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>

namespace hil::rt {

/// Writer side, inside begin_write()/end_write(): release orders the odd counter before it.
template <class T>
void seqlock_store(std::atomic<T>& word, T value) noexcept {
  word.store(value, std::memory_order_release);
}

/// Reader side, inside Seqlock::read(): acquire orders it before the counter's re-check.
template <class T>
[[nodiscard]] T seqlock_load(const std::atomic<T>& word) noexcept {
  return word.load(std::memory_order_acquire);
}

/// Writer side: the writer's own view of a word it alone writes.
template <class T>
[[nodiscard]] T writer_load(const std::atomic<T>& word) noexcept {
  return word.load(std::memory_order_relaxed);
}

/// The sequence counter alone. Odd while a write is in progress.
class Seqlock {
 public:
  /// Writer only (one thread). Wait-free.
  void begin_write() noexcept {
    seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  /// Writer only. Release: a reader that sees the even value sees every store before it.
  void end_write() noexcept {
    seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }

  /// Any reader thread. Calls `copy()` (which must read the data with seqlock_load) until it
  /// ran without a concurrent write; returns the (even) sequence number of the version read.
  template <class Copy>
  std::uint64_t read(Copy&& copy) const {
    for (;;) {
      const std::uint64_t before = seq_.load(std::memory_order_acquire);
      if (before & 1U) continue;
      copy();
      if (seq_.load(std::memory_order_relaxed) == before) return before;
    }
  }

 private:
  std::atomic<std::uint64_t> seq_{0};
};

/// A fixed-size byte buffer published through a Seqlock, stored as atomic 64-bit words.
class SeqlockBuffer {
 public:
  /// Setup only: allocates and zero-fills (prefaults) the storage.
  explicit SeqlockBuffer(std::size_t bytes)
      : bytes_(bytes), words_(std::make_unique<std::atomic<std::uint64_t>[]>(word_count())) {
    for (std::size_t i = 0; i < word_count(); ++i) seqlock_store(words_[i], std::uint64_t{0});
  }

  [[nodiscard]] std::size_t size() const noexcept { return bytes_; }

  /// Writer only (one thread); `src` holds size() bytes. Wait-free, no allocation.
  void write(const void* src) noexcept {
    seqlock_.begin_write();
    store(0, src, bytes_);
    seqlock_.end_write();
  }
  /// The same with the first word given apart: `rest` holds size() − 8 bytes (a header word
  /// and the data behind it without copying them together first).
  void write(std::uint64_t first, const void* rest) noexcept {
    seqlock_.begin_write();
    seqlock_store(words_[0], first);
    store(1, rest, bytes_ - 8);
    seqlock_.end_write();
  }

  /// Any reader thread; `dst` receives size() bytes. Returns the version sequence number.
  std::uint64_t read(void* dst) const {
    auto* bytes = static_cast<unsigned char*>(dst);
    return seqlock_.read([&] {
      for (std::size_t i = 0; i < word_count(); ++i) {
        const std::uint64_t word = seqlock_load(words_[i]);
        std::memcpy(bytes + i * 8, &word, chunk(i));
      }
    });
  }

 private:
  [[nodiscard]] std::size_t word_count() const noexcept { return (bytes_ + 7) / 8; }
  /// `n` bytes from `src` into the words from `first_word` on: whole words, then the tail.
  void store(std::size_t first_word, const void* src, std::size_t n) noexcept {
    const auto* bytes = static_cast<const unsigned char*>(src);
    const std::size_t whole = n / 8;
    for (std::size_t i = 0; i < whole; ++i) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes + i * 8, 8);
      seqlock_store(words_[first_word + i], word);
    }
    if (n % 8 != 0) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes + whole * 8, n % 8);
      seqlock_store(words_[first_word + whole], word);
    }
  }
  [[nodiscard]] std::size_t chunk(std::size_t word) const noexcept {
    return word + 1 < word_count() || bytes_ % 8 == 0 ? 8 : bytes_ % 8;
  }

  std::size_t bytes_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> words_;
  Seqlock seqlock_;
};

}  // namespace hil::rt
