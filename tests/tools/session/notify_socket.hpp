#pragma once
// A stand-in for systemd's end of the notification protocol (sd_notify(3)): a unix datagram
// socket bound in a fresh directory, named to the code under test through NOTIFY_SOCKET and,
// when asked, a watchdog through WATCHDOG_USEC. Like PID 1 it reads all the time (a thread
// of its own): a sender blocks once net.unix.max_dgram_qlen datagrams wait unread (10 unless
// systemd raised it). Restores the environment when destroyed.

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdlib>  // mkdtemp, setenv, unsetenv
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace hil::tools::testing {

class NotifySocket {
 public:
  NotifySocket() {
    std::string pattern = (std::filesystem::temp_directory_path() / "hil_notify_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    path_ = dir_ / "notify";
    fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path_.c_str(), sizeof(address.sun_path) - 1);
    if (fd_ < 0 || bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
      throw std::runtime_error("cannot bind " + path_.string());
    }
    clear_environment();  // in case the tests themselves run under systemd
    reader_ = std::jthread([this](const std::stop_token& stop) {
      while (!stop.stop_requested()) {
        pollfd p{.fd = fd_, .events = POLLIN, .revents = 0};
        if (::poll(&p, 1, 10) == 1) {
          const std::lock_guard lock(mutex_);
          read_pending();
          arrived_.notify_all();
        }
      }
    });
  }
  ~NotifySocket() {
    reader_ = {};  // stops and joins
    clear_environment();
    close(fd_);
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  NotifySocket(const NotifySocket&) = delete;
  NotifySocket& operator=(const NotifySocket&) = delete;

  /// NOTIFY_SOCKET names this socket (what systemd does for Type=notify).
  void export_socket() const { export_variable("NOTIFY_SOCKET", path_.string()); }
  /// WATCHDOG_USEC as WatchdogSec= sets it.
  static void export_watchdog(std::chrono::microseconds timeout) {
    export_variable("WATCHDOG_USEC", std::to_string(timeout.count()));
  }
  /// Any other variable of the protocol (WATCHDOG_PID, a NOTIFY_SOCKET of one's own). Call it
  /// before starting threads that read the environment.
  static void export_variable(const char* name, const std::string& value) {
    setenv(name, value.c_str(), 1);  // NOLINT(concurrency-mt-unsafe): test setup
  }

  /// The next datagram not yet taken, or nothing after `timeout`.
  [[nodiscard]] std::optional<std::string> receive(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    read_pending();
    if (!arrived_.wait_for(lock, timeout, [this] { return !received_.empty(); })) {
      return std::nullopt;
    }
    std::string first = std::move(received_.front());
    received_.pop_front();
    return first;
  }

  /// Every datagram sent before the call and not yet taken.
  [[nodiscard]] std::vector<std::string> drain() {
    const std::lock_guard lock(mutex_);
    read_pending();
    std::vector<std::string> all(received_.begin(), received_.end());
    received_.clear();
    return all;
  }

 private:
  static void clear_environment() {
    for (const char* name : {"NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"}) {
      unsetenv(name);  // NOLINT(concurrency-mt-unsafe): test setup and teardown
    }
  }

  void read_pending() {  // with mutex_ held
    std::array<char, 4096> buffer{};
    for (;;) {
      const ssize_t n = recv(fd_, buffer.data(), buffer.size(), MSG_DONTWAIT);
      if (n < 0) return;
      received_.emplace_back(buffer.data(), static_cast<std::size_t>(n));
    }
  }

  std::filesystem::path dir_;
  std::filesystem::path path_;
  int fd_ = -1;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<std::string> received_;
  std::jthread reader_;  // last: started once the members it uses exist
};

}  // namespace hil::tools::testing
