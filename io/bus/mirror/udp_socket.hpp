#pragma once
// The mirror's socket: one non-blocking UDP socket bound to a configured address, and the
// addresses of its peers ("host:port", "[v6]:port"). Don't-fragment is set (IP_PMTUDISC_DO),
// so a datagram over the path MTU fails loudly (counted) instead of fragmenting.
//
// Thread-safety: construct and resolve in the setup phase; afterwards one thread sends and
// receives; local() and to_string() from any thread (const, no state changes).

#include <netinet/in.h>
#include <sys/socket.h>

#include <string>
#include <string_view>

namespace hil::io::bus::mirror {

struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t size = 0;

  /// "host:port" or "[v6]:port" (port numeric; host a name or literal). Prefers IPv4 unless
  /// `family` (AF_INET/AF_INET6) says otherwise. std::runtime_error naming `what` and `text`.
  static SocketAddress resolve(std::string_view text, std::string_view what,
                               int family = AF_UNSPEC);

  [[nodiscard]] int family() const noexcept { return storage.ss_family; }
  [[nodiscard]] const sockaddr* get() const noexcept {
    return reinterpret_cast<const sockaddr*>(&storage);
  }
  /// Same family, address and port as `other` (size `len`). No allocation.
  [[nodiscard]] bool same(const sockaddr_storage& other, socklen_t len) const noexcept;
  /// "1.2.3.4:5" or "[::1]:5".
  [[nodiscard]] std::string to_string() const;
};

class UdpSocket {
 public:
  /// Opens, binds `local` and makes it non-blocking; std::runtime_error naming the address.
  explicit UdpSocket(const SocketAddress& local);
  ~UdpSocket();
  UdpSocket(const UdpSocket&) = delete;
  UdpSocket& operator=(const UdpSocket&) = delete;
  UdpSocket(UdpSocket&&) = delete;
  UdpSocket& operator=(UdpSocket&&) = delete;

  [[nodiscard]] int fd() const noexcept { return fd_; }
  /// The bound address (port 0 resolved).
  [[nodiscard]] const SocketAddress& local() const noexcept { return local_; }

 private:
  int fd_ = -1;
  SocketAddress local_;
};

}  // namespace hil::io::bus::mirror
