#pragma once
// A plain loopback UDP socket for tests that play a cannelloni peer by hand (or a stranger).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <span>
#include <stdexcept>

namespace hil::io::can::test {

class UdpTestSocket {
 public:
  /// Bound to 127.0.0.1 on an ephemeral port.
  UdpTestSocket() : fd_(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {
    if (fd_ < 0) throw std::runtime_error("socket");
    sockaddr_in a = loopback(0);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      throw std::runtime_error("bind");
    }
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
  }
  ~UdpTestSocket() { ::close(fd_); }
  UdpTestSocket(const UdpTestSocket&) = delete;
  UdpTestSocket& operator=(const UdpTestSocket&) = delete;
  UdpTestSocket(UdpTestSocket&&) = delete;
  UdpTestSocket& operator=(UdpTestSocket&&) = delete;

  [[nodiscard]] std::uint16_t port() const { return port_; }

  void send_to(std::uint16_t port, std::span<const std::uint8_t> bytes) const {
    const sockaddr_in a = loopback(port);
    if (::sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&a),
                 sizeof a) != static_cast<ssize_t>(bytes.size())) {
      throw std::runtime_error("sendto");
    }
  }

  /// A port that was free a moment ago (bind, read, close).
  static std::uint16_t free_port() {
    const UdpTestSocket s;
    return s.port();
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

}  // namespace hil::io::can::test
