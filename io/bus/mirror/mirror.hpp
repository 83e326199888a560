#pragma once
// The UDP mirror agent (docs/bus.md "The UDP mirror"): one non-RT thread that keeps remote
// hosts' replicas of this host's regions up to date, and is the local writer of the replicas
// of regions written on other hosts. It shares only memory with the RT thread (the BusImage's
// latches) and never blocks on the network: the socket is non-blocking, a full send buffer
// drops the datagram (send_dropped), and the thread sleeps in ppoll, woken by a datagram or
// after at most poll_us (without sent regions: at the next PING, no fixed period at all). Its
// timer slack is 1 us, so a 100 us poll is 100 us, not the kernel's default 150.
//
// Sending: every poll_us the thread checks each sent region's latch counter; when it moved
// (and max_rate_hz allows) it reads the snapshot (bounded: 3 latch tries), encodes and signs
// it, and sends it send_repeat times (copies flagged) to every peer that lists the region.
// Everything one pass queues leaves in one sendmmsg (datagram_batch.hpp).
// region_seq is the mirror's own count of snapshots sent per region in its session, so the
// wire has no gaps from local snapshots it skipped. Each start() is a new session: a random
// session_id and session_start_unix_ns = CLOCK_REALTIME then.
//
// Receiving: recvmmsg batches; a datagram from an address that is no configured peer is
// counted (unknown_source) and dropped before any parsing; each configured peer's datagrams
// then pass a budget — receive_budget per budget_period_ns (the rig's tick) on average, a
// token bucket that lets a backlog of 4 periods' worth through at once (the thread was not
// scheduled for a while), the rest dropped unparsed and counted (over_budget) — so that a
// flooding peer costs the thread a bounded amount of hashing and the RT reader's latch a
// bounded number of publishes per tick.
// Then the Receiver's rules (receiver.hpp), then a latch publish into the local replica
// with the REMOTE session_id, region_seq and tick, publish_mono_ns = the local apply time,
// status = valid, or safe_state when the sender flagged the region invalid (its own status
// was not valid), and source_age_ns = publish_age_ns + RTT/2 (the last PING/PONG to that
// peer; 0 until one came back).
//
// Thread-safety: construct, start(), stop() and destroy from one owner thread; counters(),
// region_counters(), peer_counters(), peers() and local_address() from any thread (relaxed
// atomics, immutable text).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/bus/bus_image.hpp"
#include "io/bus/mirror/receiver.hpp"

namespace hil::io::bus::mirror {

struct MirrorPeer {
  std::string address;               ///< "host:port" or "[v6]:port"
  std::vector<std::string> send;     ///< regions this host sends to the peer
  std::vector<std::string> receive;  ///< regions the peer writes (accepted only from it)
};

struct MirrorLinkSpec {
  std::string bind = "127.0.0.1:0";
  std::vector<MirrorPeer> peers;
  std::filesystem::path key_file;
  std::uint8_t key_id = 1;  ///< signs with this key; verifies with it and the previous one
  /// Key rotation: a second key still accepted on receive (empty: none).
  std::filesystem::path previous_key_file;
  std::uint8_t previous_key_id = 0;
  unsigned send_repeat = 1;      ///< copies per snapshot, 1..8
  double max_rate_hz = 1000;     ///< per region; ≤ 0: every snapshot the thread sees
  double ping_interval_s = 1.0;  ///< per peer; ≤ 0: no PING
  std::uint32_t poll_us = 100;   ///< 1..1'000'000
  /// The tag this mirror signs with (the wire version); both are accepted on receive.
  TagKind tag = TagKind::hmac_sha256;
  /// Datagrams per configured peer handed on per budget period; the rest dropped and counted
  /// (over_budget). 1..1'000'000.
  std::uint32_t receive_budget = kDefaultReceiveBudget;
  std::uint64_t budget_period_ns = 1'000'000;  ///< the rig's tick period; ≤ 1 s
  static constexpr std::uint32_t kDefaultReceiveBudget = 64;
};

/// Totals. rtt_us is the last round trip measured to any peer.
struct MirrorCounters : ReceiveCounters {
  Counter rx{0};               ///< datagrams received
  Counter tx{0};               ///< datagrams sent (DATA copies, PING, PONG)
  Counter send_dropped{0};     ///< EAGAIN/ENOBUFS: dropped, never waited on
  Counter send_errors{0};      ///< other send failures (EMSGSIZE, unreachable, ...)
  Counter read_contention{0};  ///< a sent region's latch raced 3 times; retried next poll
  Counter pings{0};            ///< PINGs received (and answered)
  Counter pongs{0};            ///< PONGs that gave an RTT
  Counter rtt_us{0};
  Counter over_budget{0};  ///< from a configured peer over its receive budget: dropped unparsed
};

/// One configured peer: what came from its address and what became of it. rx counts every
/// datagram from the address; the refusals are by the Receiver's rules (unknown_source here:
/// DATA of a region this peer does not write), lost by its rule 6 over the peer's regions.
struct PeerCounters : ReceiveCounters {
  Counter rx{0};
  Counter over_budget{0};
  Counter rtt_us{0};  ///< the last round trip to this peer; 0 until a PONG came back
};

class Mirror {
 public:
  /// Setup: opens and binds the socket, loads the key(s), resolves the peers and checks the
  /// regions. std::runtime_error with a clear message for a key file, an address, a region
  /// not in the bus, a region both sent and received or received from two peers, a region
  /// over the datagram size, or an option out of range. `image` must outlive the mirror.
  Mirror(BusImage& image, MirrorLinkSpec config);
  ~Mirror();  ///< stops
  Mirror(const Mirror&) = delete;
  Mirror& operator=(const Mirror&) = delete;
  Mirror(Mirror&&) = delete;
  Mirror& operator=(Mirror&&) = delete;

  /// Starts the thread with a new session (no-op when running).
  void start();
  /// Stops and joins the thread; idempotent.
  void stop();

  [[nodiscard]] std::string local_address() const;
  [[nodiscard]] const MirrorCounters& counters() const noexcept;
  /// Region `region` (bus-wide id); std::out_of_range for an unknown id.
  [[nodiscard]] const RegionReceiveCounters& region_counters(std::uint32_t region) const;
  /// The configured peers ("host:port" as resolved), in the configuration's order.
  [[nodiscard]] const std::vector<std::string>& peers() const noexcept;
  /// Peer `peer` (an index into peers()); std::out_of_range past the end.
  [[nodiscard]] const PeerCounters& peer_counters(std::size_t peer) const;
  /// The peer region `region` is received from (an index into peers()), or -1: not received.
  [[nodiscard]] int receive_peer(std::uint32_t region) const noexcept;
  [[nodiscard]] const MirrorLinkSpec& config() const noexcept;
  /// The session of the current (or last) start; 0 before the first.
  [[nodiscard]] std::uint64_t session_id() const noexcept;

 private:
  struct State;  // sockets, buffers, per-region and per-peer state (mirror.cpp)
  std::unique_ptr<State> state_;
};

}  // namespace hil::io::bus::mirror
