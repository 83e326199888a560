#pragma once
// Reads a config file whole, saying why when it cannot.

#include <cstddef>
#include <filesystem>
#include <string>

namespace hil::config {

struct FileText {
  std::string text;
  std::string error;  ///< empty on success, else "cannot read the file: <OS reason>"
};

/// Reads at most `max_bytes` bytes (a longer file is an error). Setup phase; thread-safe.
[[nodiscard]] FileText read_text_file(const std::filesystem::path& path, std::size_t max_bytes);

}  // namespace hil::config
