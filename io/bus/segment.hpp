#pragma once
// A bus segment: an anonymous memfd (nothing in /dev/shm, gone with its last fd and mapping),
// sealed against resizing (nobody can truncate it under a reader and cause SIGBUS), mapped
// and pre-faulted. Setup phase only: creating and mapping may throw std::system_error.

#include <cstddef>
#include <string>

namespace hil::io::bus {

class Segment {
 public:
  Segment() = default;
  /// A new zero-filled memfd of `bytes` (rounded up to pages), sealed against shrink, grow and
  /// further sealing, mapped read-write and pre-faulted. `name` shows in /proc/PID/fd only.
  [[nodiscard]] static Segment create(const std::string& name, std::size_t bytes);
  /// Maps `fd` (taking ownership), read-write or read-only, after checking it is a sealed
  /// memfd that cannot shrink (a client handed a resizable fd refuses it).
  [[nodiscard]] static Segment map(int fd, bool writable);

  Segment(Segment&& other) noexcept;
  Segment& operator=(Segment&& other) noexcept;
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;
  ~Segment();

  [[nodiscard]] int fd() const noexcept { return fd_; }
  [[nodiscard]] std::byte* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool writable() const noexcept { return writable_; }
  /// A new read-only descriptor of the same memory (reopened through /proc/self/fd): what a
  /// reader is handed, so it cannot map it writable. Caller owns it.
  [[nodiscard]] int reopen_read_only() const;

 private:
  void release() noexcept;
  int fd_ = -1;
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  bool writable_ = false;
};

}  // namespace hil::io::bus
