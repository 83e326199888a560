#include "io/lidar/lidar_sender.hpp"

#if defined(__SANITIZE_THREAD__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wtsan"  // as io/can/transport/cannelloni_transport.cpp
#endif

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <charconv>
#include <stdexcept>
#include <thread>

namespace hil::io::lidar {

namespace asio = boost::asio;
using asio::ip::udp;

struct LidarSender::Socket {
  asio::io_context io;  // only to construct the socket; never run
  udp::socket socket{io};
  udp::endpoint peer;
};

std::optional<LidarTarget> parse_lidar_uri(std::string_view uri, std::string& why) {
  if (uri == "none") return LidarTarget{};
  constexpr std::string_view kScheme = "udp://";
  if (!uri.starts_with(kScheme)) {
    why = R"(expected "udp://HOST[:PORT]" or "none", got ")" + std::string(uri) + "\"";
    return std::nullopt;
  }
  std::string_view rest = uri.substr(kScheme.size());
  LidarTarget target;
  const std::size_t colon = rest.rfind(':');
  if (colon != std::string_view::npos && rest.find(']', colon) == std::string_view::npos) {
    const std::string_view port = rest.substr(colon + 1);
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc{} || end != port.data() + port.size() || value == 0 || value > 65535) {
      why = "bad port \"" + std::string(port) + "\" (1…65535)";
      return std::nullopt;
    }
    target.port = static_cast<std::uint16_t>(value);
    rest = rest.substr(0, colon);
  }
  if (rest.starts_with('[') && rest.ends_with(']')) rest = rest.substr(1, rest.size() - 2);
  if (rest.empty()) {
    why = "no host in \"" + std::string(uri) + "\"";
    return std::nullopt;
  }
  target.host = std::string(rest);
  return target;
}

LidarSender::LidarSender(const std::string& uri, std::size_t ring_packets)
    : socket_(std::make_unique<Socket>()), ring_(ring_packets) {
  std::string why;
  const auto target = parse_lidar_uri(uri, why);
  if (!target) throw std::runtime_error(uri + ": " + why);
  if (target->host.empty()) return;  // "none"
  boost::system::error_code ec;
  udp::resolver resolver(socket_->io);
  const auto results = resolver.resolve(target->host, std::to_string(target->port),
                                        udp::resolver::numeric_service, ec);
  if (ec || results.empty()) {
    throw std::runtime_error(uri + ": cannot resolve '" + target->host +
                             "': " + (ec ? ec.message() : "no address"));
  }
  socket_->peer = results.begin()->endpoint();
  socket_->socket.open(socket_->peer.protocol(), ec);
  if (ec) throw std::runtime_error(uri + ": cannot open a UDP socket: " + ec.message());
  thread_ = std::thread([this] { run(); });
}

LidarSender::~LidarSender() {
  stop_.store(true, std::memory_order_release);
  if (thread_.joinable()) thread_.join();
}

bool LidarSender::post(const Packet& packet) noexcept {
  if (!thread_.joinable()) return true;  // "none": nothing leaves
  return ring_.try_push(packet);         // the ring's release/acquire hands the bytes over
}

void LidarSender::run() {
  Packet packet{};
  while (true) {
    const bool stopping = stop_.load(std::memory_order_acquire);  // then a last drain
    while (ring_.try_pop(packet)) {
      boost::system::error_code ec;
      socket_->socket.send_to(asio::buffer(packet), socket_->peer, 0, ec);
      (ec ? failed_ : sent_).fetch_add(1, std::memory_order_relaxed);  // statistics only
    }
    if (stopping) return;
    std::this_thread::sleep_for(kPoll);
  }
}

std::uint64_t LidarSender::sent() const noexcept { return sent_.load(std::memory_order_relaxed); }

std::uint64_t LidarSender::dropped() const noexcept {
  return ring_.dropped() + failed_.load(std::memory_order_relaxed);
}

}  // namespace hil::io::lidar
