#pragma once
// What the mirror does with one received datagram before anything reaches the local replica
// (docs/bus.md "The UDP mirror", receiver rules). In order, each refusal counted by reason:
//   1. structure (parse) → malformed; bus hash, region id, n, region hash → schema;
//   2. the source is the peer configured for that region (PING/PONG: any peer) → unknown_source;
//   3. the tag (constant time) under the key its key_id names → auth_failed;
//   4. same session (session_id and session_start_unix_ns): region_seq > last is applied,
//      equal is a duplicate, less is reordered_old; a newer region_seq with a lower tick is
//      tick_regression. An older snapshot is never applied after a newer one;
//   5. another session: applied at once when its session_start_unix_ns is later than the
//      current one's (a writer restart, counted in writer_restarts), else old_session (a
//      replay of an earlier run);
//   6. lost: region_seq values skipped between consecutive applied snapshots of a session,
//      plus region_seq − 1 for the first snapshot applied after a restart (a session starts at
//      1). The first session a receiver ever sees for a region counts nothing lost before
//      its first applied snapshot: the receiver was not there. A late snapshot that is then
//      refused as reordered_old stays counted as lost: lost = never applied.
//   7. applied: the caller publishes the snapshot into the replica.
// Refused packets change no state. Pure logic: no sockets, clocks or allocation per datagram.
//
// Thread-safety: accept() from one thread (the mirror's); counters are relaxed atomics that
// any thread may read.

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "io/bus/bus_schema.hpp"
#include "io/bus/mirror/mirror_key.hpp"
#include "io/bus/mirror/wire.hpp"

namespace hil::io::bus::mirror {

/// What accept() decided.
enum class Verdict : std::uint8_t {
  malformed,
  schema,
  unknown_source,
  auth_failed,
  duplicate,
  reordered_old,
  tick_regression,
  old_session,
  applied,  ///< DATA to publish
  ping,     ///< an authentic PING from a configured peer (answer it)
  pong,     ///< an authentic PONG from a configured peer (an RTT sample)
};

using Counter = std::atomic<std::uint64_t>;
inline void bump(Counter& c, std::uint64_t n = 1) noexcept {
  c.fetch_add(n, std::memory_order_relaxed);
}

/// Totals over every region and peer.
struct ReceiveCounters {
  Counter malformed{0};       ///< parse() refused it (size, magic, version, type, n)
  Counter schema{0};          ///< another bus, an unknown region, n or region hash differ
  Counter unknown_source{0};  ///< not from the peer configured for the region
  Counter auth_failed{0};     ///< wrong tag or unknown key_id
  Counter duplicates{0};
  Counter reordered{0};  ///< reordered_old: an older region_seq than the last applied
  Counter old_session{0};
  Counter tick_regression{0};
  Counter lost{0};  ///< rule 6
  Counter applied{0};
  Counter writer_restarts{0};
};

/// One region's receive side.
struct RegionReceiveCounters {
  Counter unknown_source{0};
  Counter auth_failed{0};
  Counter duplicates{0};
  Counter reordered{0};
  Counter old_session{0};
  Counter tick_regression{0};
  Counter lost{0};
  Counter applied{0};
  Counter writer_restarts{0};
  Counter session_id{0};  ///< of the last applied snapshot
  Counter region_seq{0};  ///< of the last applied snapshot
};

class Receiver {
 public:
  static constexpr int kUnknownPeer = -1;

  /// Setup: `keys` and `totals` must outlive the receiver.
  Receiver(const BusSchema& schema, const KeyRing& keys, ReceiveCounters& totals);

  /// Setup: region `region` is written by configured peer `peer` (≥ 0); std::invalid_argument
  /// for an unknown region or one already expected from another peer.
  void expect(std::uint32_t region, int peer);
  /// The peer region `region` is received from, or kUnknownPeer.
  [[nodiscard]] int peer_of(std::uint32_t region) const noexcept;

  /// Rules 1–6 for `bytes`, received from configured peer `peer` (kUnknownPeer for any other
  /// address). `out` holds the parsed packet when the verdict is applied, ping or pong. Each
  /// count goes to the totals and, when given, to `peer_totals` (the sending peer's).
  [[nodiscard]] Verdict accept(std::span<const std::uint8_t> bytes, int peer, Packet& out,
                               ReceiveCounters* peer_totals = nullptr) noexcept;

  [[nodiscard]] std::size_t region_count() const noexcept { return regions_.size(); }
  [[nodiscard]] const RegionReceiveCounters& region_counters(std::uint32_t region) const {
    return counters_[regions_.at(region).index];
  }

 private:
  struct RegionState {
    std::uint32_t value_count = 0;
    std::uint64_t schema_hash = 0;
    int peer = kUnknownPeer;
    std::size_t index = 0;  // into counters_
    bool has_session = false;
    std::uint64_t session_id = 0;
    std::uint64_t session_start_unix_ns = 0;
    std::uint64_t last_seq = 0;
    std::int64_t last_tick = 0;
  };

  Verdict order(RegionState& s, RegionReceiveCounters& c, const Packet& p) noexcept;
  /// Bumps `field` of the totals and of the current call's peer totals.
  void count(Counter ReceiveCounters::*field, std::uint64_t n = 1) noexcept {
    bump(totals_.*field, n);
    if (peer_totals_ != nullptr) bump(peer_totals_->*field, n);
  }

  const KeyRing& keys_;
  ReceiveCounters& totals_;
  ReceiveCounters* peer_totals_ = nullptr;  // of the accept() running
  std::uint64_t bus_hash_ = 0;
  std::vector<RegionState> regions_;
  std::unique_ptr<RegionReceiveCounters[]> counters_;
};

}  // namespace hil::io::bus::mirror
