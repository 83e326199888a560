#pragma once
// An in-test lossy UDP relay on 127.0.0.1 (no netem): side A faces mirror A, side B faces
// mirror B. DATA from A to B goes through seeded faults — drop, duplicate, reorder (held
// and released 1..depth packets later), bit flip, truncation, burst loss, and replay of
// captured packets — everything else passes untouched. It logs the ground truth: every
// intact DATA packet it forwarded to B, in forwarding order.

#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <unistd.h>

#include <stdexcept>

namespace hil::io::bus::mirror::test {

/// A non-blocking UDP socket on 127.0.0.1 with an ephemeral port.
class RelaySocket {
 public:
  RelaySocket() : fd_(::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)) {
    sockaddr_in a = loopback(0);
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      throw std::runtime_error("relay socket");
    }
    const int buffer = 1 << 20;
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof buffer);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
  }
  ~RelaySocket() { ::close(fd_); }
  RelaySocket(const RelaySocket&) = delete;
  RelaySocket& operator=(const RelaySocket&) = delete;

  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] std::uint16_t port() const { return port_; }
  void send_to(std::uint16_t port, const std::vector<std::uint8_t>& bytes) const {
    const sockaddr_in a = loopback(port);
    (void)::sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&a),
                   sizeof a);
  }

 private:
  static sockaddr_in loopback(std::uint16_t port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
  }
  int fd_;
  std::uint16_t port_ = 0;
};

struct RelayFaults {
  double drop = 0;
  double duplicate = 0;
  double reorder = 0;
  unsigned reorder_depth = 4;
  double corrupt = 0;   ///< flip one random bit
  double truncate = 0;  ///< cut to a random shorter length
  double capture = 0;   ///< keep a copy for replay()
  std::size_t max_captured = 200;
};

struct Forwarded {
  std::uint64_t session_id;
  std::uint64_t session_start;
  std::uint64_t region_seq;
};

class LossyRelay {
 public:
  LossyRelay(RelayFaults faults, std::uint64_t seed) : faults_(faults), rng_(seed) {}
  ~LossyRelay() { stop(); }
  LossyRelay(const LossyRelay&) = delete;
  LossyRelay& operator=(const LossyRelay&) = delete;

  [[nodiscard]] std::uint16_t a_side_port() const { return a_side_.port(); }
  [[nodiscard]] std::uint16_t b_side_port() const { return b_side_.port(); }

  void start(std::uint16_t a_port, std::uint16_t b_port) {
    a_port_ = a_port;
    b_port_ = b_port;
    thread_ = std::thread([this] { run(); });
  }
  void stop() {
    running_ = false;
    if (thread_.joinable()) thread_.join();
  }
  void set_burst_loss(bool on) { burst_ = on; }
  /// Injects every captured packet toward B once the relay has forwarded an intact packet of
  /// another session than theirs (i.e. after the sender restarted).
  void replay_after_restart() { replay_ = true; }

  struct Truth {
    std::vector<Forwarded> intact;  ///< intact DATA to B, in forwarding order
    std::uint64_t dropped = 0, burst_dropped = 0, duplicated = 0, reordered = 0, corrupted = 0,
                  truncated = 0, replayed = 0, to_b = 0, to_a = 0;
  };
  Truth truth() const {
    std::lock_guard lock(mutex_);
    return truth_;
  }

 private:
  using Bytes = std::vector<std::uint8_t>;
  struct Held {
    Bytes bytes;
    unsigned release_after;
  };

  static std::uint64_t u64(const Bytes& b, std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
    return v;
  }
  static bool is_data(const Bytes& b) { return b.size() >= 88 && b[5] == 1; }

  void run() {
    pollfd fds[2] = {{a_side_.fd(), POLLIN, 0}, {b_side_.fd(), POLLIN, 0}};
    Bytes buf(4096);
    while (running_) {
      if (::poll(fds, 2, 2) == 0) {
        std::lock_guard lock(mutex_);
        while (!held_.empty()) release_one();  // idle: nothing follows the held packets
        continue;
      }
      for (int side = 0; side < 2; ++side) {
        while (true) {
          const ssize_t n = ::recv(fds[side].fd, buf.data(), buf.size(), MSG_DONTWAIT);
          if (n < 0) break;
          Bytes p(buf.begin(), buf.begin() + n);
          std::lock_guard lock(mutex_);
          if (side == 1) {
            a_side_.send_to(a_port_, p);
            ++truth_.to_a;
          } else {
            from_a(std::move(p));
          }
        }
      }
    }
  }

  void to_b(const Bytes& p, bool intact) {
    b_side_.send_to(b_port_, p);
    ++truth_.to_b;
    if (intact && is_data(p)) truth_.intact.push_back({u64(p, 16), u64(p, 24), u64(p, 48)});
    if (intact && is_data(p) && replay_ && !captured_.empty() &&
        u64(p, 16) != u64(captured_[0], 16)) {
      replay_ = false;
      for (const Bytes& old : captured_) {
        b_side_.send_to(b_port_, old);
        ++truth_.to_b;
        ++truth_.replayed;
        truth_.intact.push_back({u64(old, 16), u64(old, 24), u64(old, 48)});
      }
    }
  }
  void release_one() {
    Held h = std::move(held_.front());
    held_.pop_front();
    to_b(h.bytes, true);
  }
  void release_due() {
    for (auto it = held_.begin(); it != held_.end();) {
      if (it->release_after == 0) {
        const Bytes bytes = std::move(it->bytes);
        it = held_.erase(it);
        to_b(bytes, true);
      } else {
        ++it;
      }
    }
  }
  void forward(const Bytes& p, bool intact) {
    to_b(p, intact);
    for (Held& h : held_) {
      if (h.release_after > 0) --h.release_after;
    }
    release_due();
  }

  void from_a(Bytes p) {
    if (!is_data(p)) {
      forward(p, true);
      return;
    }
    std::uniform_real_distribution<double> u(0, 1);
    if (burst_) {
      ++truth_.burst_dropped;
      return;
    }
    if (u(rng_) < faults_.capture && captured_.size() < faults_.max_captured)
      captured_.push_back(p);
    if (u(rng_) < faults_.drop) {
      ++truth_.dropped;
      return;
    }
    if (u(rng_) < faults_.corrupt) {
      ++truth_.corrupted;
      const std::size_t bit = std::uniform_int_distribution<std::size_t>(0, 8 * p.size() - 1)(rng_);
      p[bit / 8] ^= static_cast<std::uint8_t>(1U << (bit % 8));
      forward(p, false);
      return;
    }
    if (u(rng_) < faults_.truncate) {
      ++truth_.truncated;
      p.resize(std::uniform_int_distribution<std::size_t>(0, p.size() - 1)(rng_));
      forward(p, false);
      return;
    }
    if (u(rng_) < faults_.reorder) {
      ++truth_.reordered;
      const auto depth = std::uniform_int_distribution<unsigned>(1, faults_.reorder_depth)(rng_);
      held_.push_back({std::move(p), depth});
      return;
    }
    const bool dup = u(rng_) < faults_.duplicate;
    forward(p, true);
    if (dup) {
      ++truth_.duplicated;
      forward(p, true);
    }
  }

  RelayFaults faults_;
  std::mt19937_64 rng_;
  RelaySocket a_side_;
  RelaySocket b_side_;
  std::uint16_t a_port_ = 0;
  std::uint16_t b_port_ = 0;
  std::atomic<bool> running_{true};
  std::atomic<bool> burst_{false};
  std::atomic<bool> replay_{false};
  std::thread thread_;
  mutable std::mutex mutex_;
  Truth truth_;
  std::deque<Held> held_;
  std::vector<Bytes> captured_;
};

}  // namespace hil::io::bus::mirror::test
