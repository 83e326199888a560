#include "config/text/text_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace hil::config {

namespace {

[[nodiscard]] FileText failure(int error_number) {
  // system_category().message is the thread-safe strerror.
  return FileText{.error = "cannot read the file: " + std::system_category().message(error_number)};
}

}  // namespace

FileText read_text_file(const std::filesystem::path& path, std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return failure(errno);
  FileText result;
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      result = failure(errno);
      break;
    }
    if (got == 0) break;
    if (result.text.size() + static_cast<std::size_t>(got) > max_bytes) {
      result = FileText{{},
                        fmt::format("the file is larger than {} bytes; expected a rig "
                                    "config file",
                                    max_bytes)};
      break;
    }
    result.text.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return result;
}

}  // namespace hil::config
