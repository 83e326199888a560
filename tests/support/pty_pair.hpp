#pragma once
// A pseudo-terminal for SLCAN tests: the transport opens the slave path as it would open
// /dev/ttyACM0; the test plays the adapter (or relays to python-can) on the master side.

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

namespace hil::io::can::test {

class Pty {
 public:
  Pty() : master_(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)) {
    if (master_ < 0 || ::grantpt(master_) != 0 || ::unlockpt(master_) != 0) {
      throw std::runtime_error("posix_openpt/grantpt/unlockpt failed");
    }
    char name[128];
    if (::ptsname_r(master_, name, sizeof name) != 0) throw std::runtime_error("ptsname_r");
    slave_path_ = name;
    // Keeps the slave open while nobody else has it, so the master never sees a hang-up.
    holder_ = ::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    termios raw{};  // no echo, no CR/LF translation even before the transport opens it
    if (holder_ < 0 || ::tcgetattr(holder_, &raw) != 0) throw std::runtime_error("pty slave");
    ::cfmakeraw(&raw);
    ::tcsetattr(holder_, TCSANOW, &raw);
    ::fcntl(master_, F_SETFL, ::fcntl(master_, F_GETFL) | O_NONBLOCK);
  }
  ~Pty() {
    if (holder_ >= 0) ::close(holder_);
    ::close(master_);
  }
  Pty(const Pty&) = delete;
  Pty& operator=(const Pty&) = delete;
  Pty(Pty&&) = delete;
  Pty& operator=(Pty&&) = delete;

  [[nodiscard]] int master() const { return master_; }
  [[nodiscard]] const std::string& slave_path() const { return slave_path_; }

  /// Writes all of `bytes` to the master (what the adapter sends to the host).
  void write(std::string_view bytes) const {
    while (!bytes.empty()) {
      const ssize_t n = ::write(master_, bytes.data(), bytes.size());
      if (n > 0) {
        bytes.remove_prefix(static_cast<std::size_t>(n));
      } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
        throw std::runtime_error("pty write");
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
  }

  /// What the host wrote, read until `want` bytes arrived or `timeout` passed.
  [[nodiscard]] std::string read(std::size_t want, std::chrono::milliseconds timeout) const {
    std::string got;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    char buffer[4096];
    while (got.size() < want && std::chrono::steady_clock::now() < deadline) {
      const ssize_t n = ::read(master_, buffer, sizeof buffer);
      if (n > 0) {
        got.append(buffer, static_cast<std::size_t>(n));
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    return got;
  }

  /// Everything the host wrote within `quiet` of silence.
  [[nodiscard]] std::string drain(std::chrono::milliseconds quiet) const {
    return read(static_cast<std::size_t>(-1), quiet);
  }

 private:
  int master_;
  int holder_ = -1;
  std::string slave_path_;
};

}  // namespace hil::io::can::test
