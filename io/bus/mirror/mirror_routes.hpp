#pragma once
// Who mirrors what (docs/bus.md "The UDP mirror"): each peer's address, the regions this
// mirror sends and to which peers, the regions it receives and from which peer — checked
// against the bus: a region of the bus, small enough for one datagram, one writer per region
// (received from one peer only, never both sent and received), each peer listed once and of
// the bind address's IP version. Setup only; thread-safety: pure.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/bus/bus_schema.hpp"
#include "io/bus/mirror/mirror.hpp"
#include "io/bus/mirror/udp_socket.hpp"

namespace hil::io::bus::mirror {

struct MirrorRoutes {
  struct Send {
    std::uint32_t region = 0;
    std::vector<std::size_t> peers;  ///< indices into `peers`, each once
  };
  struct Receive {
    std::uint32_t region = 0;
    std::size_t peer = 0;
  };
  std::vector<SocketAddress> peers;  ///< config.peers', in their order
  std::vector<Send> sends;           ///< each region once, in the order first listed
  std::vector<Receive> receives;
};

/// The options of `config` in range (send_repeat, poll_us, receive_budget and its period, tag,
/// finite rates); std::runtime_error("mirror: …") naming the option and its range.
void check_options(const MirrorLinkSpec& config);

/// The routes of `config` over `schema`, its peers resolved in `bind`'s IP version. Throws
/// std::runtime_error("mirror: …") naming the peer, the region and what is wrong.
[[nodiscard]] MirrorRoutes plan_routes(const BusSchema& schema, const MirrorLinkSpec& config,
                                       const SocketAddress& bind);

}  // namespace hil::io::bus::mirror
