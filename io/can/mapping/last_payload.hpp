// The last payload of a CAN message, written by the RT thread and read by the console: a
// sequence lock over relaxed atomic words, so the writer never waits and a reader retries
// until it holds one whole frame's bytes.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

#include "io/can/can_frame.hpp"

namespace hil::io::can {

class LastPayload {
 public:
  /// RT (the one writer), noexcept, no allocation.
  void store(std::span<const std::uint8_t> payload) noexcept {
    const std::uint32_t s = seq_.load(std::memory_order_relaxed);
    seq_.store(s + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    length_.store(static_cast<std::uint8_t>(payload.size()), std::memory_order_relaxed);
    for (std::size_t w = 0; w * 8 < payload.size(); ++w) {
      std::uint64_t word = 0;
      std::memcpy(&word, payload.data() + w * 8, std::min<std::size_t>(8, payload.size() - w * 8));
      words_[w].store(word, std::memory_order_relaxed);
    }
    seq_.store(s + 2, std::memory_order_release);
  }

  /// Any thread: a consistent copy, or nullopt before the first frame (or after 100 torn
  /// reads in a row, which a frame every tick cannot cause).
  [[nodiscard]] std::optional<CanFrame> load() const noexcept {
    for (int attempt = 0; attempt < 100; ++attempt) {
      const std::uint32_t s1 = seq_.load(std::memory_order_acquire);
      if (s1 == 0) return std::nullopt;
      if ((s1 & 1U) != 0) continue;
      CanFrame f;
      f.length = std::min<std::uint8_t>(length_.load(std::memory_order_relaxed), kMaxFdLength);
      for (std::size_t w = 0; w * 8 < f.length; ++w) {
        const std::uint64_t word = words_[w].load(std::memory_order_relaxed);
        std::memcpy(f.data.data() + w * 8, &word, std::min<std::size_t>(8, f.length - w * 8));
      }
      std::atomic_thread_fence(std::memory_order_acquire);
      if (seq_.load(std::memory_order_relaxed) == s1) return f;
    }
    return std::nullopt;
  }

 private:
  std::atomic<std::uint32_t> seq_{0};
  std::atomic<std::uint8_t> length_{0};
  std::array<std::atomic<std::uint64_t>, kMaxFdLength / 8> words_{};
};

}  // namespace hil::io::can
