#pragma once
// The mirror's shared secrets (docs/bus.md "The UDP mirror", security). A key file holds 32
// bytes, either raw or as 64 hex characters with an optional trailing newline; it must not be
// accessible by "other" (0640 root:hilsim or 0600). Keys live only in memory, are never
// copied into a run directory or a config hash (record the key_id), and are zeroed
// (sodium_memzero) when destroyed.
//
// A KeyRing holds up to two keys by key_id: during a rotation both the old and the new key
// verify, and the sender signs with the one it is told to use.
//
// Thread-safety: load/write_new_key in the setup phase; a KeyRing is read-only afterwards and
// may then be read from any thread.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace hil::io::bus::mirror {

class MirrorKey {
 public:
  static constexpr std::size_t kBytes = 32;

  MirrorKey() = default;  ///< empty (no key)
  /// Reads `file`; std::runtime_error naming the file for a wrong size or format, a file
  /// readable by other users ("chmod 640 FILE"), or one that cannot be read.
  static MirrorKey load(const std::filesystem::path& file);
  /// From raw bytes (tests, benchmarks).
  static MirrorKey from_bytes(std::span<const std::uint8_t, kBytes> bytes) noexcept;

  ~MirrorKey();
  MirrorKey(const MirrorKey&) = delete;
  MirrorKey& operator=(const MirrorKey&) = delete;
  MirrorKey(MirrorKey&& other) noexcept;
  MirrorKey& operator=(MirrorKey&& other) noexcept;

  [[nodiscard]] bool empty() const noexcept { return !present_; }
  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept {
    return {bytes_.data(), present_ ? kBytes : 0};
  }

 private:
  std::array<std::uint8_t, kBytes> bytes_{};
  bool present_ = false;
};

/// Creates `file` (which must not exist) with mode 0600 holding a fresh random key as 64 hex
/// characters and a newline (`hilsim bus keygen FILE`). std::runtime_error naming the file.
void write_new_key(const std::filesystem::path& file);

/// Up to two keys by key_id (the wire's key_id byte selects).
class KeyRing {
 public:
  static constexpr std::size_t kMaxKeys = 2;

  /// Adds `key` under `id`; std::invalid_argument for an empty key, an id already held or a
  /// third key.
  void add(std::uint8_t id, MirrorKey key);
  /// The key with `id`, or nullptr. Wait-free.
  [[nodiscard]] const MirrorKey* find(std::uint8_t id) const noexcept;
  [[nodiscard]] std::size_t size() const noexcept { return count_; }

 private:
  std::array<MirrorKey, kMaxKeys> keys_{};
  std::array<std::uint8_t, kMaxKeys> ids_{};
  std::size_t count_ = 0;
};

}  // namespace hil::io::bus::mirror
