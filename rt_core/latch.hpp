#pragma once
// Two-copy latch (the Linux kernel's seqcount_latch, include/linux/seqlock.h): one writer,
// any number of readers, over 64-bit words that may live in memory shared between processes.
// The writer bumps the counter (readers go to copy 1), writes copy 0, bumps it again (readers
// go to copy 0) and writes copy 1. A writer preempted, stopped or killed at any instant
// leaves one complete copy, so a reader never waits for it; a reader that raced a write
// retries a bounded number of times and then says so. Unlike Seqlock::read, nothing here can
// spin forever on a counter a dead writer left odd.
//
// Memory order as in rt_core/seqlock.hpp (Boehm, MSPC 2012, §5): data words are stored with
// release and loaded with acquire, so a reader that sees any word of a write in progress sees
// the counter moved on its re-check. Every access goes through std::atomic_ref<uint64_t>,
// which is lock-free and hence address-free ([atomics.lockfree]): valid across processes.
//
// Thread-safety: write() from one writer (thread or process) at a time; read() from any
// number of readers. Both are wait-free apart from read()'s bounded retries; neither
// allocates, throws or makes a system call.

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace hil::rt {

static_assert(std::atomic_ref<std::uint64_t>::is_always_lock_free);

/// What one bounded read found.
struct LatchRead {
  bool ok = false;        ///< a complete copy was read into the destination
  std::uint64_t seq = 0;  ///< the counter the copy was read under
  unsigned tries = 0;     ///< attempts made (1 when no write raced)
};

/// A view over a counter word and two copies of `words` words each. Owns nothing.
class LatchView {
 public:
  LatchView() = default;
  LatchView(std::uint64_t* seq, std::uint64_t* copy0, std::uint64_t* copy1,
            std::size_t words) noexcept
      : seq_(seq), copy_{copy0, copy1}, words_(words) {}

  [[nodiscard]] std::size_t words() const noexcept { return words_; }

  /// Writer: publishes `src[0, n)` (n ≤ words()). `between(step)` runs after step 1 (counter
  /// odd), 2 (copy 0 written) and 3 (counter even) — a hook for tests that stop the writer
  /// mid-latch; the default does nothing.
  template <class Between>
  void write(const std::uint64_t* src, std::size_t n, Between&& between) noexcept {
    std::atomic_ref<std::uint64_t> seq(*seq_);
    const std::uint64_t s = seq.load(std::memory_order_relaxed);
    seq.store(s + 1, std::memory_order_relaxed);  // readers use copy 1
    between(1);
    store(copy_[0], src, n);
    between(2);
    seq.store(s + 2, std::memory_order_release);  // copy 0 complete: readers use copy 0
    between(3);
    store(copy_[1], src, n);
  }
  void write(const std::uint64_t* src, std::size_t n) noexcept {
    write(src, n, [](int) noexcept {});
  }

  /// Reader: copies `n` words (n ≤ words()) of the copy the counter points at into `dst`,
  /// at most `max_tries` times; ok=false when every try raced a write (dst then holds a
  /// torn mixture the caller must discard).
  LatchRead read(std::uint64_t* dst, std::size_t n, unsigned max_tries) const noexcept {
    std::atomic_ref<std::uint64_t> seq(*seq_);
    LatchRead r;
    while (r.tries < max_tries) {
      ++r.tries;
      const std::uint64_t s = seq.load(std::memory_order_acquire);
      const std::uint64_t* src = copy_[s & 1U];
      for (std::size_t i = 0; i < n; ++i) {
        dst[i] = std::atomic_ref<std::uint64_t>(*const_cast<std::uint64_t*>(src + i))
                     .load(std::memory_order_acquire);
      }
      if (seq.load(std::memory_order_relaxed) == s) {
        r.ok = true;
        r.seq = s;
        return r;
      }
    }
    return r;
  }

  /// Writer, once before its first write() when an earlier writer may have died mid-write
  /// (a new writer process taking over the words): the copy the counter points at is always
  /// complete, the other one may be torn, and write()'s first step would send readers to it.
  /// Copies the complete copy over the other one, then leaves the counter even (readers on
  /// copy 0), which is what write() starts from. Itself safe to die in: it writes only the
  /// copy readers are not sent to, and moves the counter only after that copy is complete.
  void recover() noexcept {
    std::atomic_ref<std::uint64_t> seq(*seq_);
    const std::uint64_t s = seq.load(std::memory_order_acquire);
    const std::uint64_t* good = copy_[s & 1U];
    std::uint64_t* other = copy_[(s & 1U) ^ 1U];
    for (std::size_t i = 0; i < words_; ++i) {
      const std::uint64_t w = std::atomic_ref<std::uint64_t>(*const_cast<std::uint64_t*>(good + i))
                                  .load(std::memory_order_acquire);
      std::atomic_ref<std::uint64_t>(other[i]).store(w, std::memory_order_release);
    }
    if ((s & 1U) != 0) seq.store(s + 1, std::memory_order_release);  // copy 0 is complete now
  }

  /// Any side: the counter now (acquire).
  [[nodiscard]] std::uint64_t sequence() const noexcept {
    return std::atomic_ref<std::uint64_t>(*seq_).load(std::memory_order_acquire);
  }

 private:
  static void store(std::uint64_t* dst, const std::uint64_t* src, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) {
      std::atomic_ref<std::uint64_t>(dst[i]).store(src[i], std::memory_order_release);
    }
  }

  std::uint64_t* seq_ = nullptr;
  std::uint64_t* copy_[2] = {nullptr, nullptr};
  std::size_t words_ = 0;
};

}  // namespace hil::rt
