#pragma once
// A cannelloni peer for tests and benchmarks: a plain UDP socket on 127.0.0.1 (an ephemeral
// port) read by a thread of its own from construction to stop(), every datagram decoded
// with io/can/transport/cannelloni_codec.hpp and every frame kept with its arrival time: the
// kernel's receive timestamp (SO_TIMESTAMPNS, CLOCK_REALTIME nanoseconds — compare them with each
// other only), so a busy machine delaying this thread does not move it. Reading on a thread keeps
// the socket's receive buffer from overflowing while another process sends thousands of
// datagrams.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "io/can/transport/cannelloni_codec.hpp"
#include "io/can/transport/transport.hpp"
#include "rt_core/clock.hpp"

namespace hil::io::can::test {

class CannelloniSink {
 public:
  CannelloniSink() : fd_(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {
    if (fd_ < 0) throw std::runtime_error("socket");
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      ::close(fd_);
      throw std::runtime_error("bind");
    }
    port_ = ntohs(a.sin_port);
    const int bytes = 4 << 20;  // the kernel caps it at net.core.rmem_max
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
    const int on = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
    thread_ = std::thread([this] { read_until_stopped(); });
  }
  ~CannelloniSink() {
    stop();
    ::close(fd_);
  }
  CannelloniSink(const CannelloniSink&) = delete;
  CannelloniSink& operator=(const CannelloniSink&) = delete;
  CannelloniSink(CannelloniSink&&) = delete;
  CannelloniSink& operator=(CannelloniSink&&) = delete;

  [[nodiscard]] std::uint16_t port() const { return port_; }
  /// The URI `hilsim play --to` takes to send here (from an ephemeral local port).
  [[nodiscard]] std::string uri() const {
    return "cannelloni://127.0.0.1:" + std::to_string(port_) + "?local=127.0.0.1:0";
  }

  /// Reads what is still queued, then stops the thread. Idempotent.
  void stop() {
    stopping_.store(true, std::memory_order_release);
    if (thread_.joinable()) thread_.join();
  }

  /// Frames received so far, in arrival order (stop() first for the final list).
  [[nodiscard]] std::vector<TimedFrame> frames() const {
    const std::lock_guard lock(mutex_);
    return frames_;
  }
  [[nodiscard]] std::vector<CanFrame> frames_only() const {
    std::vector<CanFrame> out;
    for (const TimedFrame& t : frames()) out.push_back(t.frame);
    return out;
  }
  [[nodiscard]] std::size_t bad_packets() const { return bad_packets_.load(); }

 private:
  void read_until_stopped() {
    std::array<std::uint8_t, 65536> buffer{};
    for (;;) {
      pollfd p{.fd = fd_, .events = POLLIN, .revents = 0};
      const bool stopping = stopping_.load(std::memory_order_acquire);
      if (::poll(&p, 1, stopping ? 0 : 20) <= 0) {
        if (stopping) return;  // nothing left after the stop
        continue;
      }
      iovec io{.iov_base = buffer.data(), .iov_len = buffer.size()};
      alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(timespec))> control{};
      msghdr message{};
      message.msg_iov = &io;
      message.msg_iovlen = 1;
      message.msg_control = control.data();
      message.msg_controllen = control.size();
      const ssize_t n = ::recvmsg(fd_, &message, 0);
      if (n <= 0) continue;
      std::int64_t now = rt::MonotonicClock().now();  // if the kernel gave no timestamp
      for (cmsghdr* c = CMSG_FIRSTHDR(&message); c != nullptr; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
          timespec ts{};
          std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
          now = ts.tv_sec * rt::kSecond + ts.tv_nsec;
        }
      }
      cannelloni::PacketReader reader({buffer.data(), static_cast<std::size_t>(n)});
      if (reader.error() != cannelloni::PacketError::none) {
        bad_packets_.fetch_add(1);
        continue;
      }
      const std::lock_guard lock(mutex_);
      for (CanFrame f; reader.next(f);) frames_.push_back({.frame = f, .timestamp_ns = now});
    }
  }

  int fd_;
  std::uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<std::size_t> bad_packets_{0};
  mutable std::mutex mutex_;
  std::vector<TimedFrame> frames_;
  std::thread thread_;
};

}  // namespace hil::io::can::test
