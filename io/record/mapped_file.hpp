#pragma once
// A file's bytes, read-only, through mmap(2): readers see the whole file as one span
// without copying it, and pages load as they are read. Thread-safety: immutable.

#include <cstdint>
#include <filesystem>
#include <span>

namespace hil::io::record {

class MappedFile {
 public:
  /// Throws std::system_error naming the path when it cannot be opened or mapped.
  explicit MappedFile(const std::filesystem::path& path);
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept { return {data_, size_}; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace hil::io::record
