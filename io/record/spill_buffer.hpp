#pragma once
// Bytes appended now and read back once, at the end, kept out of resident memory: an unlinked
// temporary file (tmpfile(3)), or memory when none can be made. What an MCAP writer keeps for
// its summary (the Chunk Index records) lives here, so a recording of any length has flat
// resident memory.
//
// Thread-safety: one thread at a time.

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace hil::io::record {

class SpillBuffer {
 public:
  SpillBuffer();
  /// Appends `bytes`. Throws std::system_error when the temporary file cannot take them.
  void append(std::span<const std::uint8_t> bytes);
  /// Hands every byte appended, in order, to `take` in blocks of up to 64 kB.
  void replay(const std::function<void(std::span<const std::uint8_t>)>& take) const;
  /// Bytes appended.
  [[nodiscard]] std::uint64_t size() const noexcept { return size_; }
  /// True when the bytes are in a temporary file (false: in memory).
  [[nodiscard]] bool spilled() const noexcept { return file_ != nullptr; }

 private:
  struct Close {
    void operator()(std::FILE* f) const noexcept { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Close> file_;
  std::vector<std::uint8_t> memory_;
  std::uint64_t size_ = 0;
};

}  // namespace hil::io::record
