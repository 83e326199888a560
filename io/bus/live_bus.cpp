#include "io/bus/live_bus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "io/bus/client/attach_server.hpp"
#include "io/bus/mirror/mirror.hpp"
#include "io/bus/mirror/mirror_health.hpp"

namespace hil::io::bus {

namespace {

/// The block's settings both sides share: the receive budget per tick and the tag.
void common(mirror::MirrorLinkSpec& c, const MirrorSpec& spec, const LiveBusSpec& o) {
  c.receive_budget = spec.receive_budget;
  c.budget_period_ns = o.tick_period_ns;
  c.tag = static_cast<mirror::TagKind>(spec.tag);
}

/// The mirror's configuration on the rig's side: its block as written.
mirror::MirrorLinkSpec rig_side(const MirrorSpec& spec, const LiveBusSpec& o) {
  mirror::MirrorLinkSpec c{.bind = spec.bind,
                           .key_file = spec.key_file,
                           .key_id = spec.key_id,
                           .send_repeat = spec.send_repeat};
  common(c, spec, o);
  for (const MirrorPeerSpec& p : spec.peers) {
    c.peers.push_back({.address = p.address, .send = p.send, .receive = p.receive});
  }
  return c;
}

/// On the far host: the peer entry that names this host (its bind address, else the only
/// one), turned around — it sends what the rig receives from it and receives what the rig
/// sends it; its one peer is the rig's mirror.
mirror::MirrorLinkSpec replica_side(const MirrorSpec& spec, const LiveBusSpec& o) {
  const MirrorPeerSpec* me = nullptr;
  for (const MirrorPeerSpec& p : spec.peers) {
    if (p.address == o.replica_bind) me = &p;
  }
  if (me == nullptr && spec.peers.size() == 1) me = &spec.peers.front();
  if (me == nullptr) {
    throw std::runtime_error(fmt::format(
        "the rig's bus.mirror lists {} peers and none is {}: bind to the address the rig "
        "names as its peer",
        spec.peers.size(), o.replica_bind));
  }
  mirror::MirrorLinkSpec c{.bind = o.replica_bind,
                           .key_file = spec.key_file,
                           .key_id = spec.key_id,
                           .send_repeat = spec.send_repeat};
  c.peers.push_back({.address = o.replica_peer.empty() ? spec.bind : o.replica_peer,
                     .send = me->receive,
                     .receive = me->send});
  common(c, spec, o);
  return c;
}

}  // namespace

LiveBus::LiveBus(BusSchema schema, const LiveBusSpec& options)
    : endpoint_(options.endpoint),
      image_(std::make_unique<BusImage>(std::move(schema))),
      input_(std::make_unique<ImageInput>(*image_)),
      server_(std::make_unique<AttachServer>(*image_, endpoint_)) {
  if (!options.mirror) return;
  mirror::MirrorLinkSpec config =
      options.replica ? replica_side(*options.mirror, options) : rig_side(*options.mirror, options);
  // The mirror is the local writer of what it receives: no local client may take those roles
  for (const mirror::MirrorPeer& peer : config.peers) {
    for (const std::string& name : peer.receive) {
      const int id = image_->schema().find_region(name);
      if (id < 0) continue;  // the mirror names it in its own error
      const RegionSchema& region = image_->schema().regions[static_cast<std::size_t>(id)];
      if (region.direction == RegionDirection::input) {
        (void)server_->reserve(region.writer,
                               fmt::format("the UDP mirror (from {})", peer.address));
      }
    }
  }
  mirror_ = std::make_unique<mirror::Mirror>(*image_, std::move(config));
  mirror_->start();
  health_ = std::make_unique<mirror::HealthFileWriter>(*mirror_, image_->schema(), endpoint_);
}

LiveBus::~LiveBus() { close(); }

void LiveBus::close() noexcept {
  health_.reset();  // its last write before the mirror stops; the file goes with it
  if (mirror_) mirror_->stop();
  image_->close();
}

std::string LiveBus::describe() const {
  std::size_t in = 0;
  for (const RegionSchema& r : image_->schema().regions)
    in += r.direction == RegionDirection::input;
  std::string out = fmt::format("bus {}: {} regions ({} in, {} out) at {}", image_->schema().name,
                                image_->schema().regions.size(), in,
                                image_->schema().regions.size() - in, endpoint_.string());
  if (mirror_) out += fmt::format("; mirror on {}", mirror_->local_address());
  return out;
}

}  // namespace hil::io::bus
