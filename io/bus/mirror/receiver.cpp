#include "io/bus/mirror/receiver.hpp"

#include <stdexcept>
#include <string>

namespace hil::io::bus::mirror {

Receiver::Receiver(const BusSchema& schema, const KeyRing& keys, ReceiveCounters& totals)
    : keys_(keys),
      totals_(totals),
      bus_hash_(schema.hash()),
      regions_(schema.regions.size()),
      counters_(std::make_unique<RegionReceiveCounters[]>(schema.regions.size())) {
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    regions_[i].value_count = static_cast<std::uint32_t>(schema.regions[i].channels.size());
    regions_[i].schema_hash = schema.region_hash(i);
    regions_[i].index = i;
  }
}

void Receiver::expect(std::uint32_t region, int peer) {
  if (region >= regions_.size() || peer < 0) {
    throw std::invalid_argument("mirror receiver: region " + std::to_string(region) + " or peer " +
                                std::to_string(peer) + " out of range");
  }
  RegionState& s = regions_[region];
  if (s.peer != kUnknownPeer && s.peer != peer) {
    throw std::invalid_argument("mirror receiver: region " + std::to_string(region) +
                                " is already received from another peer (one writer per region)");
  }
  s.peer = peer;
}

int Receiver::peer_of(std::uint32_t region) const noexcept {
  return region < regions_.size() ? regions_[region].peer : kUnknownPeer;
}

Verdict Receiver::accept(std::span<const std::uint8_t> bytes, int peer, Packet& out,
                         ReceiveCounters* peer_totals) noexcept {
  peer_totals_ = peer_totals;
  // 1. structure, then schema
  if (parse(bytes, out) != WireError::ok) {
    count(&ReceiveCounters::malformed);
    return Verdict::malformed;
  }
  if (out.head.bus_schema_hash != bus_hash_) {
    count(&ReceiveCounters::schema);
    return Verdict::schema;
  }
  RegionState* state = nullptr;
  RegionReceiveCounters* c = nullptr;
  if (out.head.type == PacketType::data) {
    if (out.data.region_id >= regions_.size()) {
      count(&ReceiveCounters::schema);
      return Verdict::schema;
    }
    state = &regions_[out.data.region_id];
    c = &counters_[state->index];
    if (out.data.n != state->value_count || out.data.region_schema_hash != state->schema_hash) {
      count(&ReceiveCounters::schema);
      return Verdict::schema;
    }
    // 2. source: the one peer that writes this region
    if (peer == kUnknownPeer || peer != state->peer) {
      count(&ReceiveCounters::unknown_source);
      bump(c->unknown_source);
      return Verdict::unknown_source;
    }
  } else if (peer == kUnknownPeer) {
    count(&ReceiveCounters::unknown_source);
    return Verdict::unknown_source;
  }
  // 3. authenticity
  if (verify(out, keys_) != WireError::ok) {
    count(&ReceiveCounters::auth_failed);
    if (c != nullptr) bump(c->auth_failed);
    return Verdict::auth_failed;
  }
  if (out.head.type == PacketType::ping) return Verdict::ping;
  if (out.head.type == PacketType::pong) return Verdict::pong;
  return order(*state, *c, out);
}

Verdict Receiver::order(RegionState& s, RegionReceiveCounters& c, const Packet& p) noexcept {
  const std::uint64_t seq = p.data.region_seq;
  std::uint64_t lost = 0;
  if (!s.has_session) {
    s.has_session = true;  // first contact: nothing before it counts as lost
  } else if (p.head.session_id == s.session_id &&
             p.head.session_start_unix_ns == s.session_start_unix_ns) {
    // 4. same session
    if (seq == s.last_seq) {
      count(&ReceiveCounters::duplicates);
      bump(c.duplicates);
      return Verdict::duplicate;
    }
    if (seq < s.last_seq) {
      count(&ReceiveCounters::reordered);
      bump(c.reordered);
      return Verdict::reordered_old;
    }
    if (p.data.tick < s.last_tick) {
      count(&ReceiveCounters::tick_regression);
      bump(c.tick_regression);
      return Verdict::tick_regression;
    }
    lost = seq - s.last_seq - 1;
  } else if (p.head.session_start_unix_ns > s.session_start_unix_ns) {
    // 5. a restarted writer: accepted at once, whatever its region_seq
    count(&ReceiveCounters::writer_restarts);
    bump(c.writer_restarts);
    lost = seq > 0 ? seq - 1 : 0;
  } else {
    count(&ReceiveCounters::old_session);
    bump(c.old_session);
    return Verdict::old_session;
  }
  s.session_id = p.head.session_id;
  s.session_start_unix_ns = p.head.session_start_unix_ns;
  s.last_seq = seq;
  s.last_tick = p.data.tick;
  if (lost > 0) {
    count(&ReceiveCounters::lost, lost);
    bump(c.lost, lost);
  }
  count(&ReceiveCounters::applied);
  bump(c.applied);
  c.session_id.store(s.session_id, std::memory_order_relaxed);
  c.region_seq.store(seq, std::memory_order_relaxed);
  return Verdict::applied;
}

}  // namespace hil::io::bus::mirror
