#include "io/can/transport/cannelloni_transport.hpp"

// GCC 12 warns (-Wtsan) that ThreadSanitizer cannot model the atomic_thread_fence inside
// io_context's scheduler, which constructing the socket instantiates. We never run the
// io_context — no handler, no scheduler code executes — so the fence is never reached.
#if defined(__SANITIZE_THREAD__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wtsan"
#endif

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <stdexcept>

#include "rt_core/clock.hpp"

namespace hil::io::can {

namespace asio = boost::asio;
using asio::ip::udp;

struct CannelloniTransport::Socket {
  asio::io_context io;  // only to construct the socket; never run
  udp::socket socket{io};
  udp::endpoint peer;
  udp::endpoint sender;  // filled by each receive_from
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
}

CannelloniTransport::~CannelloniTransport() = default;

bool CannelloniTransport::read_packet() noexcept {
  Socket& s = *socket_;
  boost::system::error_code ec;
  const std::size_t size = s.socket.receive_from(asio::buffer(rx_buffer_), s.sender, 0, ec);
  if (ec) {
    if (!is_back_pressure(ec)) TransportCounters::add(counters_.errors);
    return false;
  }
  TransportCounters::add(counters_.rx_packets);
  reader_ = cannelloni::PacketReader();
  if (size > max_rx_packet_bytes_) {
    counters_.drop(DropReason::oversized);
    return true;
  }
  if (s.sender != s.peer) {
    counters_.drop(DropReason::unknown_peer);
    return true;
  }
  reader_ = cannelloni::PacketReader({rx_buffer_.data(), size});
  if (reader_.error() != cannelloni::PacketError::none) {
    counters_.drop(cannelloni::is_truncation(reader_.error()) ? DropReason::truncated
                                                              : DropReason::malformed);
    return true;
  }
  const cannelloni::SequenceTracker::Result order = rx_sequence_.observe(reader_.header().sequence);
  if (order.order == cannelloni::SequenceTracker::Order::gap) {
    TransportCounters::add(counters_.sequence_gaps);
    TransportCounters::add(counters_.sequence_lost, order.missing);
  } else if (order.order == cannelloni::SequenceTracker::Order::late) {
    TransportCounters::add(counters_.sequence_late);
  }
  rx_timestamp_ns_ = rt::MonotonicClock().now();
  return true;
}

std::size_t CannelloniTransport::receive(std::span<TimedFrame> out, std::int64_t tick) noexcept {
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
