#include "io/bus/mirror/mirror_key.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "io/bus/mirror/hmac.hpp"

namespace hil::io::bus::mirror {

namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw std::runtime_error("mirror key file " + file.string() + ": " + what);
}

int hex_digit(std::uint8_t c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Closes a descriptor and zeroes a buffer on every path out of load().
struct Scratch {
  int fd = -1;
  std::array<std::uint8_t, 2 * MirrorKey::kBytes + 2> buffer{};
  ~Scratch() {
    sodium_memzero(buffer.data(), buffer.size());
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

MirrorKey MirrorKey::load(const std::filesystem::path& file) {
  sodium_ready();
  Scratch s;
  s.fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (s.fd < 0) fail(file, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(s.fd, &st) != 0) fail(file, std::string("cannot stat: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail(file, "not a regular file");
  if ((st.st_mode & 007) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    fail(file, std::string("accessible by other users (mode ") + mode + "); run `chmod 640 " +
                   file.string() + "` (owner root, group hilsim)");
  }
  // One byte more than the longest accepted form tells "too long" apart
  std::size_t size = 0;
  while (size < s.buffer.size()) {
    const ssize_t got = ::read(s.fd, s.buffer.data() + size, s.buffer.size() - size);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(file, std::string("cannot read: ") + std::strerror(errno));
    if (got == 0) break;
    size += static_cast<std::size_t>(got);
  }
  std::array<std::uint8_t, kBytes> raw{};
  bool ok = false;
  if (size == kBytes) {
    std::memcpy(raw.data(), s.buffer.data(), kBytes);
    ok = true;
  } else if (size == 2 * kBytes || (size == 2 * kBytes + 1 && s.buffer[2 * kBytes] == '\n')) {
    ok = true;
    for (std::size_t i = 0; i < kBytes; ++i) {
      const int hi = hex_digit(s.buffer[2 * i]);
      const int lo = hex_digit(s.buffer[2 * i + 1]);
      if (hi < 0 || lo < 0) {
        ok = false;
        break;
      }
      raw[i] = static_cast<std::uint8_t>(hi * 16 + lo);
    }
    if (!ok) {
      sodium_memzero(raw.data(), raw.size());
      fail(file, "64 characters that are not all hexadecimal digits");
    }
  }
  if (!ok) {
    fail(file, (size == s.buffer.size() ? "more than " + std::to_string(size - 1)
                                        : std::to_string(size)) +
                   " bytes; expected 32 raw bytes or 64 hex characters (optionally followed by "
                   "a newline)");
  }
  MirrorKey key = from_bytes(raw);
  sodium_memzero(raw.data(), raw.size());
  return key;
}

MirrorKey MirrorKey::from_bytes(std::span<const std::uint8_t, kBytes> bytes) noexcept {
  MirrorKey key;
  std::memcpy(key.bytes_.data(), bytes.data(), kBytes);
  key.present_ = true;
  return key;
}

MirrorKey::~MirrorKey() { sodium_memzero(bytes_.data(), bytes_.size()); }

MirrorKey::MirrorKey(MirrorKey&& other) noexcept : bytes_(other.bytes_), present_(other.present_) {
  sodium_memzero(other.bytes_.data(), other.bytes_.size());
  other.present_ = false;
}

MirrorKey& MirrorKey::operator=(MirrorKey&& other) noexcept {
  if (this != &other) {
    bytes_ = other.bytes_;
    present_ = other.present_;
    sodium_memzero(other.bytes_.data(), other.bytes_.size());
    other.present_ = false;
  }
  return *this;
}

void write_new_key(const std::filesystem::path& file) {
  sodium_ready();
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    fail(file, errno == EEXIST ? std::string("already exists; refusing to overwrite a key")
                               : std::string("cannot create: ") + std::strerror(errno));
  }
  std::array<std::uint8_t, MirrorKey::kBytes> raw{};
  std::array<char, 2 * MirrorKey::kBytes + 1> text{};
  randombytes_buf(raw.data(), raw.size());
  static constexpr char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < raw.size(); ++i) {
    text[2 * i] = kHex[raw[i] >> 4];
    text[2 * i + 1] = kHex[raw[i] & 0xF];
  }
  text[2 * MirrorKey::kBytes] = '\n';
  sodium_memzero(raw.data(), raw.size());
  // The umask cannot widen 0600, but make the mode explicit whatever it is
  bool ok = ::fchmod(fd, 0600) == 0;
  std::size_t done = 0;
  while (ok && done < text.size()) {
    const ssize_t put = ::write(fd, text.data() + done, text.size() - done);
    if (put < 0 && errno == EINTR) continue;
    ok = put > 0;
    if (ok) done += static_cast<std::size_t>(put);
  }
  const int saved = errno;
  sodium_memzero(text.data(), text.size());
  ok = ::fsync(fd) == 0 && ok;
  ::close(fd);
  if (!ok) {
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
    fail(file, std::string("cannot write: ") + std::strerror(saved));
  }
}

void KeyRing::add(std::uint8_t id, MirrorKey key) {
  if (key.empty()) throw std::invalid_argument("mirror key " + std::to_string(id) + " is empty");
  if (find(id) != nullptr) {
    throw std::invalid_argument("mirror key_id " + std::to_string(id) + " given twice");
  }
  if (count_ == kMaxKeys) {
    throw std::invalid_argument("at most " + std::to_string(kMaxKeys) +
                                " mirror keys (the current and the next during a rotation)");
  }
  ids_[count_] = id;
  keys_[count_] = std::move(key);
  ++count_;
}

const MirrorKey* KeyRing::find(std::uint8_t id) const noexcept {
  for (std::size_t i = 0; i < count_; ++i) {
    if (ids_[i] == id) return &keys_[i];
  }
  return nullptr;
}

}  // namespace hil::io::bus::mirror
