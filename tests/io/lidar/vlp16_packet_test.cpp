// The VLP-16 data packet (io/lidar/vlp16_packet.hpp) at the byte offsets of the VLP-16 user
// manual §9.3, and the UDP sender (io/lidar/lidar_sender.hpp) on loopback.
#include "io/lidar/vlp16_packet.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "io/lidar/lidar_sender.hpp"

namespace hil::io::lidar {
namespace {

struct Fields {
  std::array<std::uint16_t, kBlocks> azimuth{};
  std::array<std::uint16_t, kBlocks * kReturnsPerBlock> distance{};
  std::array<std::uint8_t, kBlocks * kReturnsPerBlock> reflectivity{};
};

TEST(Vlp16Packet, BytesAreAtTheManualsOffsets) {
  Fields f;
  for (std::size_t b = 0; b < kBlocks; ++b) f.azimuth[b] = static_cast<std::uint16_t>(35990 + b);
  f.distance[0] = 0x1234;     // block 0, first return: bytes 4, 5
  f.reflectivity[0] = 77;     // byte 6
  f.distance[33] = 5000;      // block 1, second return: 100 + 4 + 3
  f.reflectivity[383] = 100;  // block 11, last return: 1100 + 4 + 31·3 + 2
  Packet p{};
  encode_vlp16({.azimuth = f.azimuth,
                .distance = f.distance,
                .reflectivity = f.reflectivity,
                .timestamp_us = 3'599'999'999U},
               p);
  for (std::size_t b = 0; b < kBlocks; ++b) {
    EXPECT_EQ(p[b * 100], 0xFF);
    EXPECT_EQ(p[b * 100 + 1], 0xEE);
    EXPECT_EQ(p[b * 100 + 2] | (p[b * 100 + 3] << 8), 35990 + static_cast<int>(b));
  }
  EXPECT_EQ(p[4], 0x34);
  EXPECT_EQ(p[5], 0x12);
  EXPECT_EQ(p[6], 77);
  EXPECT_EQ(p[107] | (p[108] << 8), 5000);
  EXPECT_EQ(p[1100 + 4 + 31 * 3 + 2], 100);
  // Timestamp LE at 1200, return mode at 1204 (0x37 strongest), product at 1205 (0x22)
  EXPECT_EQ(
      p[1200] | (p[1201] << 8) | (p[1202] << 16) | (static_cast<std::uint32_t>(p[1203]) << 24),
      3'599'999'999U);
  EXPECT_EQ(p[1204], 0x37);
  EXPECT_EQ(p[1205], 0x22);
}

TEST(Vlp16Packet, TimestampIsMicrosecondsPastTheHour) {
  EXPECT_EQ(timestamp_past_hour(0), 0U);
  EXPECT_EQ(timestamp_past_hour(1'327'104), 1327U);               // the first packet window ends
  EXPECT_EQ(timestamp_past_hour(3'600'000'000'000 + 5'000), 5U);  // wraps at the hour
}

TEST(Vlp16Packet, DigestIsFnv1aOfTheBytes) {
  const Packet zeros{};
  EXPECT_EQ(packet_digest(zeros), 2061071709U);  // FNV-1a 32 of 1206 zero bytes (Python)
  Packet one = zeros;
  one[1205] = 0x22;
  EXPECT_NE(packet_digest(one), packet_digest(zeros));
}

TEST(LidarUri, NoneUdpAndErrors) {
  std::string why;
  EXPECT_TRUE(parse_lidar_uri("none", why)->host.empty());
  const auto t = parse_lidar_uri("udp://192.168.1.201", why);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->host, "192.168.1.201");
  EXPECT_EQ(t->port, 2368);
  EXPECT_EQ(parse_lidar_uri("udp://[::1]:2369", why)->host, "::1");
  EXPECT_EQ(parse_lidar_uri("udp://localhost:7000", why)->port, 7000);
  EXPECT_FALSE(parse_lidar_uri("udp://host:0", why));
  EXPECT_NE(why.find("port"), std::string::npos);
  EXPECT_FALSE(parse_lidar_uri("tcp://host:2368", why));
  EXPECT_FALSE(parse_lidar_uri("udp://", why));
}

/// A loopback UDP socket the test reads (ephemeral port, 2 s receive timeout).
class Receiver {
 public:
  Receiver() : fd_(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
      throw std::runtime_error("bind");
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    const timeval tv{.tv_sec = 2, .tv_usec = 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  ~Receiver() { ::close(fd_); }
  Receiver(const Receiver&) = delete;
  Receiver& operator=(const Receiver&) = delete;
  [[nodiscard]] std::uint16_t port() const { return port_; }
  /// One datagram's size (−1: none within 2 s) into `out`.
  ssize_t receive(std::array<std::uint8_t, 2048>& out) const {
    return ::recv(fd_, out.data(), out.size(), 0);
  }

 private:
  int fd_;
  std::uint16_t port_ = 0;
};

TEST(LidarSender, SendsEachPostedPacketAsOneDatagramInOrder) {
  const Receiver peer;
  LidarSender sender("udp://127.0.0.1:" + std::to_string(peer.port()));
  Fields f;
  for (std::uint32_t i = 0; i < 20; ++i) {
    Packet p{};
    encode_vlp16({.azimuth = f.azimuth,
                  .distance = f.distance,
                  .reflectivity = f.reflectivity,
                  .timestamp_us = i},
                 p);
    ASSERT_TRUE(sender.post(p));
  }
  std::array<std::uint8_t, 2048> buf{};
  for (std::uint32_t i = 0; i < 20; ++i) {
    ASSERT_EQ(peer.receive(buf), static_cast<ssize_t>(kPacketBytes)) << i;
    EXPECT_EQ(buf[1200], i);  // the timestamp's low byte: in the order posted
  }
  // Counted just after each send
  for (int i = 0; i < 200 && sender.sent() < 20; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(sender.sent(), 20U);
  EXPECT_EQ(sender.dropped(), 0U);
}

TEST(LidarSender, NoneSendsNothingAndBadUrisThrow) {
  LidarSender none("none");
  EXPECT_TRUE(none.post(Packet{}));
  EXPECT_EQ(none.sent(), 0U);
  EXPECT_THROW(LidarSender("udp://no-such-host.invalid:2368"), std::runtime_error);
  EXPECT_THROW(LidarSender("serial:/dev/ttyS0"), std::runtime_error);
}

}  // namespace
}  // namespace hil::io::lidar
