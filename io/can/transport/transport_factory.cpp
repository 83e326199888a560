#include "io/can/transport/transport_factory.hpp"

#include <string>

#include "io/can/transport/cannelloni_transport.hpp"
#include "io/can/transport/slcan_transport.hpp"
#include "io/can/transport/socketcan_transport.hpp"
#include "io/can/transport/transport_uri.hpp"
#include "io/can/transport/virtual_bus.hpp"

namespace hil::io::can {
namespace {

std::unique_ptr<Transport> open_virtual(const TransportUri& uri, VirtualSpec options) {
  for (const char c : uri.target) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok)
      throw_uri_error(uri, "bus name '" + uri.target +
                               "' has a character outside "
                               "letters, digits, '_', '-', '.'");
  }
  UriQuery query(uri);
  if (auto q = query.take_unsigned("queue", 1, kMaxVirtualQueueFrames)) options.queue_frames = *q;
  query.finish("queue");
  return std::make_unique<VirtualTransport>(uri.text, uri.target, options);
}

std::unique_ptr<Transport> open_cannelloni(const TransportUri& uri, CannelloniSpec options) {
  std::string why;
  const std::optional<HostPort> peer = parse_host_port(uri.target, why);
  if (!peer) throw_uri_error(uri, "peer " + why);
  if (peer->port == 0) throw_uri_error(uri, "peer port 0");
  UriQuery query(uri);
  std::optional<HostPort> local;
  if (const auto text = query.take("local")) {
    local = parse_host_port(*text, why);
    if (!local) throw_uri_error(uri, "local=" + why);
  }
  if (auto m = query.take_unsigned("max_packet", 75, 65'507)) options.max_packet_bytes = *m;
  query.finish("local, max_packet");
  return std::make_unique<CannelloniTransport>(uri.text, *peer, local, options);
}

std::unique_ptr<Transport> open_slcan(const TransportUri& uri, SlcanSpec options) {
  UriQuery query(uri);
  if (auto b = query.take_u32("bitrate", 1, 1'000'000)) options.bitrate = b;
  if (auto b = query.take_u32("baud", 1, 4'000'000)) options.baud = *b;
  query.finish("bitrate, baud");
  return std::make_unique<SlcanTransport>(uri.text, uri.target, options);
}

/// "ID[:MASK],ID[:MASK],…"; an id above 0x7FF is a 29-bit one.
std::vector<CanIdFilter> parse_filters(const TransportUri& uri, std::string_view text) {
  std::vector<CanIdFilter> filters;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const std::size_t colon = item.find(':');
    const auto id = parse_unsigned(item.substr(0, colon));
    const auto mask = colon == std::string_view::npos ? std::optional<std::uint64_t>(kMaxExtendedId)
                                                      : parse_unsigned(item.substr(colon + 1));
    if (!id || !mask || *id > kMaxExtendedId || *mask > kMaxExtendedId) {
      throw_uri_error(
          uri, "filter item '" + std::string(item) + "' is not ID[:MASK] with 29-bit values");
    }
    filters.push_back({.id = static_cast<std::uint32_t>(*id),
                       .mask = static_cast<std::uint32_t>(*mask),
                       .extended = *id > kMaxStandardId});
  }
  return filters;
}

std::unique_ptr<Transport> open_socketcan(const TransportUri& uri, SocketCanSpec options) {
  UriQuery query(uri);
  if (auto fd = query.take_bool("fd")) options.fd = *fd;
  if (auto f = query.take("filter")) options.filters = parse_filters(uri, *f);
  if (auto b = query.take_u32("bitrate", 1, 8'000'000)) options.bitrate = b;
  if (auto r = query.take_u32("restart_ms", 0, 3'600'000)) options.restart_ms = r;
  query.finish("fd, filter, bitrate, restart_ms");
  return std::make_unique<SocketCanTransport>(uri.text, uri.target, options);
}

}  // namespace

std::unique_ptr<Transport> open_transport(std::string_view uri_text, const TransportSpec& options) {
  const TransportUri uri = parse_transport_uri(uri_text);
  if (uri.scheme == "virtual") return open_virtual(uri, options.virtual_bus);
  if (uri.scheme == "cannelloni") return open_cannelloni(uri, options.cannelloni);
  if (uri.scheme == "slcan") return open_slcan(uri, options.slcan);
  return open_socketcan(uri, options.socketcan);
}

}  // namespace hil::io::can
