#include "io/record/byte_sink.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace hil::io::record {

namespace {

[[noreturn]] void throw_errno(const char* what, const std::filesystem::path& path) {
  throw std::system_error(errno, std::generic_category(),
                          std::string(what) + " '" + path.string() + "'");
}

}  // namespace

FileSink::FileSink(const std::filesystem::path& path)
    : path_(path), fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) {
  if (fd_ < 0) throw_errno("cannot create", path);
}

FileSink::~FileSink() {
  if (fd_ >= 0) ::close(fd_);
}

void FileSink::write(std::span<const std::uint8_t> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("cannot write", path_);
    }
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
}

void FileSink::sync() {
  if (::fdatasync(fd_) != 0) throw_errno("cannot sync", path_);
}

}  // namespace hil::io::record
