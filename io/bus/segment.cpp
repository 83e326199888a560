#include "io/bus/segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <utility>

#include "io/bus/errno_error.hpp"

namespace hil::io::bus {

namespace {

constexpr int kSeals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;

}  // namespace

Segment Segment::create(const std::string& name, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  bytes = (bytes + page - 1) / page * page;
  Segment s;
  s.fd_ = memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (s.fd_ < 0) throw_errno("memfd_create " + name);
  if (ftruncate(s.fd_, static_cast<off_t>(bytes)) != 0) throw_errno("ftruncate " + name);
  if (fcntl(s.fd_, F_ADD_SEALS, kSeals) != 0) throw_errno("sealing " + name);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, s.fd_, 0);
  if (p == MAP_FAILED) throw_errno("mmap " + name);
  s.data_ = static_cast<std::byte*>(p);
  s.size_ = bytes;
  s.writable_ = true;
  return s;
}

Segment Segment::map(int fd, bool writable) {
  Segment s;
  s.fd_ = fd;
  const int seals = fcntl(fd, F_GET_SEALS);
  if (seals < 0) throw_errno("not a sealed memfd");
  if ((seals & (F_SEAL_SHRINK | F_SEAL_GROW)) != (F_SEAL_SHRINK | F_SEAL_GROW)) {
    errno = EPERM;
    throw_errno("segment not sealed against resizing");
  }
  struct stat st {};
  if (fstat(fd, &st) != 0) throw_errno("fstat segment");
  const auto bytes = static_cast<std::size_t>(st.st_size);
  const int prot = writable ? PROT_READ | PROT_WRITE : PROT_READ;
  void* p = mmap(nullptr, bytes, prot, MAP_SHARED | MAP_POPULATE, fd, 0);
  if (p == MAP_FAILED) throw_errno(writable ? "mmap segment read-write" : "mmap segment read-only");
  s.data_ = static_cast<std::byte*>(p);
  s.size_ = bytes;
  s.writable_ = writable;
  return s;
}

int Segment::reopen_read_only() const {
  const std::string path = "/proc/self/fd/" + std::to_string(fd_);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_errno("reopen " + path + " read-only");
  return fd;
}

Segment::Segment(Segment&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      writable_(other.writable_) {}

Segment& Segment::operator=(Segment&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = std::exchange(other.fd_, -1);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    writable_ = other.writable_;
  }
  return *this;
}

Segment::~Segment() { release(); }

void Segment::release() noexcept {
  if (data_ != nullptr) munmap(data_, size_);
  if (fd_ >= 0) close(fd_);
  data_ = nullptr;
  fd_ = -1;
  size_ = 0;
}

}  // namespace hil::io::bus
