#include "io/can/transport/cannelloni_transport.hpp"

// GCC 12 warns (-Wtsan) that ThreadSanitizer cannot model the atomic_thread_fence inside
// io_context's scheduler, which constructing the socket instantiates. We never run the
// io_context — no handler, no scheduler code executes — so the fence is never reached.
#if defined(__SANITIZE_THREAD__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wtsan"
#endif

#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "rt_core/clock.hpp"

namespace hil::io::can {

namespace asio = boost::asio;
using asio::ip::udp;

/// A cmsg buffer for SO_RXQ_OVFL's u32.
using OverflowControl = std::array<char, CMSG_SPACE(sizeof(std::uint32_t))>;

struct CannelloniTransport::Socket {
  asio::io_context io;  // only to construct the socket; never run
  udp::socket socket{io};
  udp::endpoint peer;
  // recvmmsg's buffers when dropping over budget: the header of each datagram, its sender
  // and the kernel's drop count (sized here, at setup, so that the tick allocates nothing).
  struct Shed {
    std::array<mmsghdr, kShedBatch> messages{};
    std::array<iovec, kShedBatch> iov{};
    std::array<std::array<std::uint8_t, cannelloni::kHeaderBytes>, kShedBatch> headers{};
    std::array<sockaddr_storage, kShedBatch> senders{};
    std::array<OverflowControl, kShedBatch> control{};
  } shed;
};

namespace {

[[noreturn]] void fail(const std::string& uri, const std::string& what) {
  throw std::runtime_error(uri + ": " + what);
}

/// Setup phase: the first IPv4 address of `where` (else the first one), as an endpoint.
udp::endpoint resolve(asio::io_context& io, const std::string& uri, const HostPort& where,
                      const char* role) {
  boost::system::error_code ec;
  udp::resolver resolver(io);
  const auto results =
      resolver.resolve(where.host, std::to_string(where.port), udp::resolver::numeric_service, ec);
  if (ec || results.empty()) {
    fail(uri, std::string("cannot resolve the ") + role + " host '" + where.host +
                  "': " + (ec ? ec.message() : "no address"));
  }
  for (const auto& entry : results) {
    if (entry.endpoint().address().is_v4()) return entry.endpoint();
  }
  return results.begin()->endpoint();
}

/// Whether the datagram's sender `from` is `peer` (address and port).
bool is_peer(const sockaddr_storage& from, const udp::endpoint& peer) noexcept {
  const sockaddr* p = peer.data();
  if (from.ss_family != p->sa_family) return false;
  if (from.ss_family == AF_INET) {
    const auto& a = reinterpret_cast<const sockaddr_in&>(from);
    const auto& b = *reinterpret_cast<const sockaddr_in*>(p);
    return a.sin_port == b.sin_port && a.sin_addr.s_addr == b.sin_addr.s_addr;
  }
  if (from.ss_family == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(from);
    const auto& b = *reinterpret_cast<const sockaddr_in6*>(p);
    return a.sin6_port == b.sin6_port &&
           std::memcmp(&a.sin6_addr, &b.sin6_addr, sizeof a.sin6_addr) == 0;
  }
  return false;
}

/// SO_RXQ_OVFL's cumulative drop count in `msg`, if the kernel put it there.
std::optional<std::uint32_t> overflow_count(msghdr& msg) noexcept {
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
      std::uint32_t dropped = 0;
      std::memcpy(&dropped, CMSG_DATA(c), sizeof dropped);
      return dropped;
    }
  }
  return std::nullopt;
}

bool is_back_pressure(const boost::system::error_code& ec) noexcept {
  return ec == asio::error::would_block || ec == asio::error::try_again ||
         ec == asio::error::no_buffer_space;
}

}  // namespace

CannelloniTransport::CannelloniTransport(std::string uri, const HostPort& peer,
                                         const std::optional<HostPort>& local,
                                         const CannelloniSpec& options)
    : Transport(std::move(uri)),
      socket_(std::make_unique<Socket>()),
      max_rx_packet_bytes_(options.max_rx_packet_bytes),
      rx_buffer_(options.max_rx_packet_bytes + 1),
      tx_buffer_(options.max_packet_bytes),
      writer_(tx_buffer_) {
  const std::string self(name());
  constexpr std::size_t kMaxUdpPayload = 65'507;
  constexpr std::size_t kMinPacket = cannelloni::kHeaderBytes + cannelloni::kMaxFrameBytes;
  if (options.max_packet_bytes < kMinPacket || options.max_packet_bytes > kMaxUdpPayload) {
    throw std::invalid_argument(self + ": max_packet=" + std::to_string(options.max_packet_bytes) +
                                " bytes; expected " + std::to_string(kMinPacket) + ".." +
                                std::to_string(kMaxUdpPayload) + " (one FD frame must fit)");
  }
  if (options.max_rx_packet_bytes < kMinPacket || options.max_rx_packet_bytes > kMaxUdpPayload) {
    throw std::invalid_argument(
        self + ": max_rx_packet_bytes=" + std::to_string(options.max_rx_packet_bytes) +
        "; expected " + std::to_string(kMinPacket) + ".." + std::to_string(kMaxUdpPayload));
  }
  if (peer.port == 0) fail(self, "the peer port must not be 0");

  Socket& s = *socket_;
  s.peer = resolve(s.io, self, peer, "peer");
  const udp::endpoint bind_to = local ? resolve(s.io, self, *local, "local")
                                      : udp::endpoint(s.peer.protocol(), s.peer.port());
  if (bind_to.protocol() != s.peer.protocol()) {
    fail(self, "local address " + bind_to.address().to_string() + " and peer address " +
                   s.peer.address().to_string() + " are of different IP versions");
  }
  boost::system::error_code ec;
  if (s.socket.open(s.peer.protocol(), ec)) fail(self, "cannot open a UDP socket: " + ec.message());
  if (s.socket.bind(bind_to, ec)) {
    fail(self, "cannot bind the local address " + bind_to.address().to_string() + ":" +
                   std::to_string(bind_to.port()) + ": " + ec.message() +
                   " (is another cannelloni or hilsim using it? choose one with "
                   "?local=ADDR:PORT)");
  }
  if (s.socket.non_blocking(true, ec)) fail(self, "cannot make the socket non-blocking");
  local_port_ = s.socket.local_endpoint(ec).port();
  const int on = 1;  // the kernel's count of datagrams a full receive queue dropped
  (void)::setsockopt(s.socket.native_handle(), SOL_SOCKET, SO_RXQ_OVFL, &on, sizeof on);
  if (options.rx_socket_bytes > 0) {
    const auto rcvbuf = static_cast<int>(std::min<std::size_t>(options.rx_socket_bytes, 1U << 30));
    (void)::setsockopt(s.socket.native_handle(), SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  }
  Socket::Shed& shed = s.shed;
  for (std::size_t i = 0; i < kShedBatch; ++i) {
    shed.iov[i] = {.iov_base = shed.headers[i].data(), .iov_len = shed.headers[i].size()};
  }
}

CannelloniTransport::~CannelloniTransport() = default;

void CannelloniTransport::kernel_drops(std::uint32_t cumulative) noexcept {
  counters_.drop(DropReason::kernel_overflow, cumulative - kernel_drops_seen_);  // u32 wraps
  kernel_drops_seen_ = cumulative;
}

void CannelloniTransport::observe(std::uint8_t sequence) noexcept {
  const cannelloni::SequenceTracker::Result order = rx_sequence_.observe(sequence);
  if (order.order == cannelloni::SequenceTracker::Order::gap) {
    TransportCounters::add(counters_.sequence_gaps);
    TransportCounters::add(counters_.sequence_lost, order.missing);
  } else if (order.order == cannelloni::SequenceTracker::Order::late) {
    TransportCounters::add(counters_.sequence_late);
  }
}

bool CannelloniTransport::read_packet() noexcept {
  Socket& s = *socket_;
  sockaddr_storage from{};
  iovec iov{.iov_base = rx_buffer_.data(), .iov_len = rx_buffer_.size()};
  OverflowControl control{};
  msghdr msg{};
  msg.msg_name = &from;
  msg.msg_namelen = sizeof from;
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.data();
  msg.msg_controllen = control.size();
  const ssize_t got = ::recvmsg(s.socket.native_handle(), &msg, MSG_DONTWAIT);
  if (got < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      TransportCounters::add(counters_.errors);
    }
    return false;
  }
  if (const std::optional<std::uint32_t> dropped = overflow_count(msg)) kernel_drops(*dropped);
  const auto size = static_cast<std::size_t>(got);
  TransportCounters::add(counters_.rx_packets);
  reader_ = cannelloni::PacketReader();
  if (size > max_rx_packet_bytes_) {
    counters_.drop(DropReason::oversized);
    return true;
  }
  if (!is_peer(from, s.peer)) {
    counters_.drop(DropReason::unknown_peer);
    return true;
  }
  reader_ = cannelloni::PacketReader({rx_buffer_.data(), size});
  if (reader_.error() != cannelloni::PacketError::none) {
    counters_.drop(cannelloni::is_truncation(reader_.error()) ? DropReason::truncated
                                                              : DropReason::malformed);
    return true;
  }
  observe(reader_.header().sequence);
  rx_timestamp_ns_ = rt::MonotonicClock().now();
  return true;
}

void CannelloniTransport::shed() noexcept {
  Socket& s = *socket_;
  Socket::Shed& b = s.shed;
  for (std::size_t batch = 0; batch < kMaxShedDatagramsPerTick / kShedBatch; ++batch) {
    for (std::size_t i = 0; i < kShedBatch; ++i) {
      msghdr& h = b.messages[i].msg_hdr;
      h = msghdr{};
      h.msg_name = &b.senders[i];
      h.msg_namelen = sizeof b.senders[i];
      h.msg_iov = &b.iov[i];
      h.msg_iovlen = 1;
      h.msg_control = b.control[i].data();
      h.msg_controllen = b.control[i].size();
    }
    // MSG_TRUNC: each msg_len is the datagram's real size though only its header is copied
    const int got = ::recvmmsg(s.socket.native_handle(), b.messages.data(), kShedBatch,
                               MSG_DONTWAIT | MSG_TRUNC, nullptr);
    if (got <= 0) {
      if (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        TransportCounters::add(counters_.errors);
      }
      return;
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(got); ++i) {
      TransportCounters::add(counters_.rx_packets);
      if (const std::optional<std::uint32_t> d = overflow_count(b.messages[i].msg_hdr)) {
        kernel_drops(*d);
      }
      const std::size_t size = b.messages[i].msg_len;
      const std::array<std::uint8_t, cannelloni::kHeaderBytes>& head = b.headers[i];
      if (size > max_rx_packet_bytes_) {
        counters_.drop(DropReason::oversized);
      } else if (!is_peer(b.senders[i], s.peer)) {
        counters_.drop(DropReason::unknown_peer);
      } else if (size < cannelloni::kHeaderBytes) {
        counters_.drop(DropReason::truncated);
      } else if (head[0] != cannelloni::kVersion || head[1] != cannelloni::kOpData) {
        counters_.drop(DropReason::malformed);
      } else {  // its frames, by the header's count, never decoded
        counters_.drop(DropReason::over_budget, (std::uint32_t{head[3]} << 8) | head[4]);
        observe(head[2]);
      }
    }
    if (static_cast<std::size_t>(got) < kShedBatch) return;  // the queue is empty
  }
}

std::size_t CannelloniTransport::receive(std::span<TimedFrame> out, std::int64_t tick) noexcept {
  out = out.first(std::min(out.size(), budget_.allowance(tick)));
  std::size_t n = 0;
  std::uint64_t bytes = 0;
  std::size_t datagrams = 0;
  while (n < out.size()) {
    if (reader_.next(out[n].frame)) {
      out[n].timestamp_ns = rx_timestamp_ns_;
      bytes += carried_bytes(out[n].frame);
      ++n;
      continue;
    }
    if (datagrams == kMaxDatagramsPerReceive || !read_packet()) break;
    ++datagrams;
  }
  counters_.received(n, bytes, tick);
  budget_.handed(n);
  if (budget_.shed_now()) shed();
  return n;
}

void CannelloniTransport::transmit() noexcept {
  const std::uint16_t frames = writer_.frame_count();
  const std::span<const std::uint8_t> packet = writer_.finish();
  ++tx_sequence_;  // also for a packet the socket refuses: the receiver sees the loss
  Socket& s = *socket_;
  boost::system::error_code ec;
  s.socket.send_to(asio::buffer(packet.data(), packet.size()), s.peer, 0, ec);
  if (!ec) {
    TransportCounters::add(counters_.tx_packets);
  } else if (is_back_pressure(ec)) {
    counters_.drop(DropReason::back_pressure, frames);
  } else {
    TransportCounters::add(counters_.errors);
    counters_.drop(DropReason::send_failed, frames);
  }
}

SendStatus CannelloniTransport::send(const CanFrame& frame, std::int64_t tick) noexcept {
  if (!writer_.started()) writer_.begin(tx_sequence_);
  cannelloni::PacketWriter::Append result = writer_.append(frame);
  if (result == cannelloni::PacketWriter::Append::full) {
    transmit();
    writer_.begin(tx_sequence_);
    result = writer_.append(frame);  // fits: the constructor checked max_packet_bytes
  }
  if (result != cannelloni::PacketWriter::Append::appended) {
    counters_.drop(DropReason::unsupported);
    return SendStatus::unsupported;
  }
  counters_.sent(1, carried_bytes(frame), tick);
  return SendStatus::ok;
}

void CannelloniTransport::flush(std::int64_t /*tick*/) noexcept {
  if (writer_.started() && writer_.frame_count() > 0) transmit();
}

}  // namespace hil::io::can
