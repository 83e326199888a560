#pragma once
// Where a lidar's packets go (docs/sensors.md "Lidar"): "udp://HOST[:PORT]" (default port
// 2368, the VLP-16's) or "none". The sender owns a non-RT thread and a UDP socket; the RT
// thread hands it packets through a bounded ring (post(): wait-free, no system call; a full
// ring drops and counts) and the thread, polling the ring every kPoll, sends each as one
// datagram, in order — so the packets leave at the rate the tick takes them, the sensor's
// (753.5/s at 600 rpm), each within kPoll of its tick.
// Thread-safety: post() and dropped() from one thread (the RT thread); the rest in setup.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "io/lidar/vlp16_packet.hpp"
#include "rt_core/spsc_ring.hpp"

namespace hil::io::lidar {

struct LidarTarget {
  std::string host;  ///< empty: "none"
  std::uint16_t port = kDefaultPort;
};

/// "none" or "udp://HOST[:PORT]"; nullopt with `why` filled otherwise.
[[nodiscard]] std::optional<LidarTarget> parse_lidar_uri(std::string_view uri, std::string& why);

class LidarSender {
 public:
  /// How often the thread looks for packets: the RT thread never wakes it (a futex wake is
  /// a system call), so a packet leaves at most this long after its tick.
  static constexpr std::chrono::microseconds kPoll{100};
  /// Resolves the host and starts the thread; throws std::runtime_error naming the URI.
  explicit LidarSender(const std::string& uri, std::size_t ring_packets = 256);
  ~LidarSender();
  LidarSender(const LidarSender&) = delete;
  LidarSender& operator=(const LidarSender&) = delete;

  /// RT: queues one packet. False (counted) when the ring is full.
  bool post(const Packet& packet) noexcept;
  /// Packets sent, and lost (ring full or the socket refused them). Any thread.
  [[nodiscard]] std::uint64_t sent() const noexcept;
  [[nodiscard]] std::uint64_t dropped() const noexcept;

 private:
  struct Socket;
  void run();
  std::unique_ptr<Socket> socket_;
  rt::SpscRing<Packet> ring_;
  std::atomic<std::uint64_t> sent_{0};
  std::atomic<std::uint64_t> failed_{0};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace hil::io::lidar
