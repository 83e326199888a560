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
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      // all or nothing: a write the disk took in part is taken back, so the file ends with
      // whole records (MCAP) or whole lines (can.log), never a cut one
      if (done > 0 && ::ftruncate(fd_, static_cast<off_t>(size_)) == 0) {
        (void)::lseek(fd_, static_cast<off_t>(size_), SEEK_SET);
      }
      errno = error;
      throw_errno("cannot write", path_);
    }
    done += static_cast<std::size_t>(n);
  }
  size_ += bytes.size();
}

void FileSink::sync() {
  if (::fdatasync(fd_) != 0) throw_errno("cannot sync", path_);
}

}  // namespace hil::io::record
