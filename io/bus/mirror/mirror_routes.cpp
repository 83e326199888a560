#include "io/bus/mirror/mirror_routes.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "io/bus/mirror/wire.hpp"

namespace hil::io::bus::mirror {

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("mirror: " + what); }

constexpr unsigned kMaxRepeat = 8;
constexpr std::uint32_t kMaxPollUs = 1'000'000;
constexpr std::uint32_t kMaxBudget = 1'000'000;

}  // namespace

MirrorRoutes plan_routes(const BusSchema& schema, const MirrorLinkSpec& config,
                         const SocketAddress& bind) {
  MirrorRoutes routes;
  std::vector<int> received_from(schema.regions.size(), -1);
  for (std::size_t p = 0; p < config.peers.size(); ++p) {
    const MirrorPeer& peer = config.peers[p];
    const SocketAddress address = SocketAddress::resolve(peer.address, "peer", bind.family());
    if (address.family() != bind.family()) {
      fail("peer " + peer.address + " is not of the bind address's IP version (" + config.bind +
           ")");
    }
    for (const SocketAddress& earlier : routes.peers) {
      if (earlier.same(address.storage, address.size)) {
        fail("peer " + peer.address + " is listed twice");
      }
    }
    routes.peers.push_back(address);
    const auto region_of = [&](const std::string& name) {
      const int id = schema.find_region(name);
      if (id < 0) {
        fail("peer " + peer.address + ": region \"" + name + "\" is not in bus \"" + schema.name +
             "\"");
      }
      const std::size_t n = schema.regions[static_cast<std::size_t>(id)].channels.size();
      if (data_packet_bytes(n) > kMaxDatagramBytes) {
        fail("region \"" + name + "\" has " + std::to_string(n) + " values: its " +
             std::to_string(data_packet_bytes(n)) + "-byte datagram exceeds " +
             std::to_string(kMaxDatagramBytes) + " bytes (at most " +
             std::to_string(kMaxRegionValues) + " values per region)");
      }
      return static_cast<std::uint32_t>(id);
    };
    for (const std::string& name : peer.receive) {
      const std::uint32_t id = region_of(name);
      const int from = received_from[id];
      if (from >= 0 && from != static_cast<int>(p)) {
        fail("region \"" + name + "\" is received from two peers (" +
             config.peers[static_cast<std::size_t>(from)].address + " and " + peer.address +
             "); a region has one writer");
      }
      if (from < 0) routes.receives.push_back({.region = id, .peer = p});
      received_from[id] = static_cast<int>(p);
    }
    for (const std::string& name : peer.send) {
      const std::uint32_t id = region_of(name);
      auto it = std::find_if(routes.sends.begin(), routes.sends.end(),
                             [&](const MirrorRoutes::Send& s) { return s.region == id; });
      if (it == routes.sends.end()) {
        routes.sends.push_back({.region = id, .peers = {}});
        it = routes.sends.end() - 1;
      }
      if (std::find(it->peers.begin(), it->peers.end(), p) == it->peers.end()) {
        it->peers.push_back(p);
      }
    }
  }
  for (const MirrorRoutes::Send& s : routes.sends) {
    if (received_from[s.region] >= 0) {
      fail("region \"" + schema.regions[s.region].name +
           "\" is both sent and received; a region has one writer");
    }
  }
  return routes;
}

void check_options(const MirrorLinkSpec& c) {
  if (c.send_repeat < 1 || c.send_repeat > kMaxRepeat) {
    fail("send_repeat " + std::to_string(c.send_repeat) + " out of range 1.." +
         std::to_string(kMaxRepeat));
  }
  if (c.poll_us < 1 || c.poll_us > kMaxPollUs) {
    fail("poll_us " + std::to_string(c.poll_us) + " out of range 1.." + std::to_string(kMaxPollUs));
  }
  if (c.receive_budget < 1 || c.receive_budget > kMaxBudget || c.budget_period_ns == 0 ||
      c.budget_period_ns > 1'000'000'000) {
    fail("receive_budget " + std::to_string(c.receive_budget) + " out of range 1.." +
         std::to_string(kMaxBudget) + " datagrams per period, or a period not in (0, 1 s]");
  }
  if (c.tag != TagKind::hmac_sha256 && c.tag != TagKind::blake2b) fail("unknown tag kind");
  if (!std::isfinite(c.max_rate_hz) || !std::isfinite(c.ping_interval_s)) {
    fail("max_rate_hz and ping_interval_s must be finite");
  }
}

}  // namespace hil::io::bus::mirror
