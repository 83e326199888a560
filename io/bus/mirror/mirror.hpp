#pragma once
// The UDP mirror agent (docs/bus.md "The UDP mirror"): one non-RT thread that keeps remote
// hosts' replicas of this host's regions up to date, and is the local writer of the replicas
// of regions written on other hosts. It shares only memory with the RT thread (the BusImage's
// latches) and never blocks on the network: the socket is non-blocking, a full send buffer
// drops the datagram (send_dropped), and the thread sleeps in ppoll at most poll_us.
//
// Sending: every poll_us the thread checks each sent region's latch counter; when it moved
// (and max_rate_hz allows) it reads the snapshot (bounded: 3 latch tries), encodes and signs
// it, and sends it send_repeat times (copies flagged) to every peer that lists the region.
// region_seq is the mirror's own count of snapshots sent per region in its session, so the
// wire has no gaps from local snapshots it skipped. Each start() is a new session: a random
// session_id and session_start_unix_ns = CLOCK_REALTIME then.
//
// Receiving: the Receiver's rules (receiver.hpp), then a latch publish into the local replica
// with the REMOTE session_id, region_seq and tick, publish_mono_ns = the local apply time,
// status = valid, or safe_state when the sender flagged the region invalid (its own status
// was not valid), and source_age_ns = publish_age_ns + RTT/2 (the last PING/PONG to that
// peer; 0 until one came back).
//
// Thread-safety: construct, start(), stop() and destroy from one owner thread; counters(),
// region_counters() and local_address() from any thread (relaxed atomics, immutable text).

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
  /// The session of the current (or last) start; 0 before the first.
  [[nodiscard]] std::uint64_t session_id() const noexcept;

 private:
  struct State;  // sockets, buffers, per-region and per-peer state (mirror.cpp)
  std::unique_ptr<State> state_;
};

}  // namespace hil::io::bus::mirror
