#include "io/bus/mirror/mirror.hpp"

#include <poll.h>
#include <sodium.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <ctime>

#include <algorithm>
#include <array>
#include <atomic>
#include <stdexcept>
#include <thread>

#include "io/bus/mirror/datagram_batch.hpp"
#include "io/bus/mirror/mirror_routes.hpp"
#include "io/bus/mirror/receive_budget.hpp"
#include "io/bus/mirror/udp_socket.hpp"
#include "io/bus/mirror/wire.hpp"

namespace hil::io::bus::mirror {

namespace {

constexpr std::size_t kMaxBatchesPerPass = 8;  // then the sends get their turn, even in a flood
constexpr unsigned long kTimerSlackNs = 1000;  // the default 50 us would dominate a 100 us poll
constexpr std::uint64_t kIdleWaitNs = 100'000'000;  // the stop flag's latency without sends
constexpr unsigned kReadTries = 3;

std::uint64_t unix_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("mirror: " + what); }

}  // namespace

struct Mirror::State {
  struct SendRegion {
    std::uint32_t id = 0;
    RegionView view;
    std::uint64_t schema_hash = 0;
    std::vector<std::size_t> peers;
    std::uint64_t last_latch = ~0ULL;  // the latch counter last sent
    std::uint64_t region_seq = 0;      // snapshots sent in this session
    std::uint64_t last_send_mono = 0;
    std::uint64_t local_session = 0;  // the local writer's head of the snapshot last sent
    std::uint64_t local_seq = 0;
  };
  struct PeerState {
    SocketAddress address;
    std::uint64_t next_ping_mono = 0;
    std::uint64_t ping_seq = 0;
    std::uint64_t awaiting = 0;  // ping_seq of the PING not yet answered; 0 none
    std::uint64_t rtt_ns = 0;
    ReceiveBudget budget;
  };

  State(BusImage& img, MirrorLinkSpec cfg)
      : image(img), config(std::move(cfg)), receiver(image.schema(), keys, counters) {}

  BusImage& image;
  MirrorLinkSpec config;
  KeyRing keys;
  MirrorCounters counters;
  Receiver receiver;
  const MirrorKey* sign_key = nullptr;
  std::unique_ptr<UdpSocket> socket;
  std::string local_text;
  std::vector<PeerState> peers;
  std::vector<std::string> peer_text;
  std::unique_ptr<PeerCounters[]> peer_counters;
  std::vector<SendRegion> sends;
  std::uint64_t bus_hash = 0;
  std::uint64_t min_interval_ns = 0;
  std::uint64_t ping_interval_ns = 0;

  std::atomic<bool> running{false};
  std::thread thread;
  std::atomic<std::uint64_t> session_id{0};
  std::uint64_t session_start = 0;
  std::uint64_t packet_seq = 0;

  // Per-datagram buffers, sized here so that the thread never allocates
  ReceiveBatch rx;
  SendBatch tx;
  RegionSnapshot snapshot;
  std::array<double, kMaxRegionValues> values{};

  void run() noexcept;
  [[nodiscard]] std::uint64_t wait_ns() const noexcept;
  bool receive() noexcept;
  [[nodiscard]] int peer_of(const sockaddr_storage& src, socklen_t len) const noexcept;
  void handle(std::span<const std::uint8_t> bytes, int peer) noexcept;
  void send_regions(std::uint64_t now) noexcept;
  void send_pings(std::uint64_t now) noexcept;
  void flush() noexcept;
  [[nodiscard]] PacketHead head(PacketType type) noexcept {
    return {.tag = config.tag,
            .type = type,
            .key_id = config.key_id,
            .flags = 0,
            .bus_schema_hash = bus_hash,
            .session_id = session_id.load(std::memory_order_relaxed),
            .session_start_unix_ns = session_start,
            .packet_seq = ++packet_seq};
  }
};

Mirror::Mirror(BusImage& image, MirrorLinkSpec config)
    : state_(std::make_unique<State>(image, std::move(config))) {
  State& s = *state_;
  const MirrorLinkSpec& c = s.config;
  const BusSchema& schema = image.schema();
  sodium_ready();
  check_options(c);
  if (c.key_file.empty()) fail("no key_file given");
  s.keys.add(c.key_id, MirrorKey::load(c.key_file));
  if (!c.previous_key_file.empty()) {
    if (c.previous_key_id == c.key_id) {
      fail("previous_key_id " + std::to_string(c.previous_key_id) + " equals key_id");
    }
    s.keys.add(c.previous_key_id, MirrorKey::load(c.previous_key_file));
  }
  s.sign_key = s.keys.find(c.key_id);
  s.bus_hash = schema.hash();
  s.min_interval_ns =
      c.max_rate_hz > 0 ? static_cast<std::uint64_t>(1e9 / c.max_rate_hz) : std::uint64_t{0};
  s.ping_interval_ns =
      c.ping_interval_s > 0 ? static_cast<std::uint64_t>(c.ping_interval_s * 1e9) : 0;

  const SocketAddress bind = SocketAddress::resolve(c.bind, "bind address");
  const MirrorRoutes routes = plan_routes(schema, c, bind);
  for (const SocketAddress& address : routes.peers) {
    s.peers.push_back({.address = address});
    s.peer_text.push_back(address.to_string());
  }
  s.peer_counters = std::make_unique<PeerCounters[]>(s.peers.size());
  for (const MirrorRoutes::Receive& r : routes.receives) {
    s.receiver.expect(r.region, static_cast<int>(r.peer));
  }
  for (const MirrorRoutes::Send& r : routes.sends) {
    s.sends.push_back({.id = r.region,
                       .view = image.region(r.region),
                       .schema_hash = schema.region_hash(r.region),
                       .peers = r.peers});
  }
  s.socket = std::make_unique<UdpSocket>(bind);
  s.local_text = s.socket->local().to_string();
}

Mirror::~Mirror() { stop(); }

void Mirror::start() {
  State& s = *state_;
  if (s.thread.joinable()) return;
  std::uint64_t id = 0;
  while (id == 0) randombytes_buf(&id, sizeof id);
  s.session_id.store(id, std::memory_order_relaxed);
  s.session_start = std::max(unix_ns(), s.session_start + 1);
  s.packet_seq = 0;
  for (State::SendRegion& r : s.sends) {
    r.region_seq = 0;
    r.last_latch = ~0ULL;
    r.last_send_mono = 0;
    r.local_session = 0;
    r.local_seq = 0;
  }
  for (State::PeerState& p : s.peers) {
    p.next_ping_mono = 0;
    p.awaiting = 0;
  }
  // The mirror is the local writer of the replicas it receives: repair what a previous
  // writer killed mid-publish may have left (RegionView::recover)
  for (std::uint32_t r = 0; r < s.receiver.region_count(); ++r) {
    if (s.receiver.peer_of(r) >= 0) {
      RegionView replica = s.image.region(r);
      replica.recover();
    }
  }
  s.running.store(true, std::memory_order_release);
  s.thread = std::thread([&s] { s.run(); });
}

void Mirror::stop() {
  State& s = *state_;
  s.running.store(false, std::memory_order_release);
  if (s.thread.joinable()) s.thread.join();
}

std::string Mirror::local_address() const { return state_->local_text; }
const MirrorCounters& Mirror::counters() const noexcept { return state_->counters; }
const RegionReceiveCounters& Mirror::region_counters(std::uint32_t region) const {
  return state_->receiver.region_counters(region);
}
std::uint64_t Mirror::session_id() const noexcept {
  return state_->session_id.load(std::memory_order_relaxed);
}
const std::vector<std::string>& Mirror::peers() const noexcept { return state_->peer_text; }
const PeerCounters& Mirror::peer_counters(std::size_t peer) const {
  if (peer >= state_->peers.size()) {
    throw std::out_of_range("mirror: no peer " + std::to_string(peer));
  }
  return state_->peer_counters[peer];
}
int Mirror::receive_peer(std::uint32_t region) const noexcept {
  return state_->receiver.peer_of(region);
}
const MirrorLinkSpec& Mirror::config() const noexcept { return state_->config; }

void Mirror::State::run() noexcept {
  ::prctl(PR_SET_TIMERSLACK, kTimerSlackNs, 0, 0, 0);  // this thread only
  pollfd pfd{.fd = socket->fd(), .events = POLLIN, .revents = 0};
  while (running.load(std::memory_order_acquire)) {
    for (std::size_t b = 0; b < kMaxBatchesPerPass && receive(); ++b) {
    }
    const std::uint64_t now = monotonic_ns();
    send_regions(now);
    send_pings(now);
    flush();
    const std::uint64_t ns = wait_ns();
    const timespec wait{.tv_sec = static_cast<time_t>(ns / 1'000'000'000),
                        .tv_nsec = static_cast<long>(ns % 1'000'000'000)};
    ::ppoll(&pfd, 1, &wait, nullptr);  // wakes at once for a datagram
  }
}

std::uint64_t Mirror::State::wait_ns() const noexcept {
  // Sent regions are polled every poll_us (the RT writer makes no system call to wake anyone);
  // without them the next PING is the only timed work: no fixed period at all
  if (!sends.empty()) return std::uint64_t{config.poll_us} * 1000;
  std::uint64_t ns = kIdleWaitNs;
  if (ping_interval_ns == 0) return ns;
  const std::uint64_t now = monotonic_ns();
  for (const PeerState& p : peers) {
    ns = std::min(ns, p.next_ping_mono > now ? p.next_ping_mono - now : 0);
  }
  return ns;
}

int Mirror::State::peer_of(const sockaddr_storage& src, socklen_t len) const noexcept {
  for (std::size_t p = 0; p < peers.size(); ++p) {
    if (peers[p].address.same(src, len)) return static_cast<int>(p);
  }
  return Receiver::kUnknownPeer;
}

bool Mirror::State::receive() noexcept {
  const std::size_t got = rx.receive(socket->fd());
  if (got == 0) return false;
  const std::uint64_t now = monotonic_ns();
  for (std::size_t i = 0; i < got; ++i) {
    bump(counters.rx);
    const int peer = peer_of(rx.from(i), rx.from_size(i));
    if (peer == Receiver::kUnknownPeer) {  // not a configured peer: dropped unparsed
      bump(counters.unknown_source);
      continue;
    }
    PeerCounters& pc = peer_counters[static_cast<std::size_t>(peer)];
    bump(pc.rx);
    if (!peers[static_cast<std::size_t>(peer)].budget.take(now, config.receive_budget,
                                                           config.budget_period_ns)) {
      bump(counters.over_budget);
      bump(pc.over_budget);
      continue;
    }
    if (rx.truncated(i)) {  // larger than any valid datagram
      bump(counters.malformed);
      bump(pc.malformed);
      continue;
    }
    handle(rx.bytes(i), peer);
  }
  flush();  // the PONGs
  return got == kDatagramBatch;
}

void Mirror::State::handle(std::span<const std::uint8_t> bytes, int peer) noexcept {
  PeerState& from_peer = peers[static_cast<std::size_t>(peer)];
  Packet packet;
  const Verdict verdict =
      receiver.accept(bytes, peer, packet, &peer_counters[static_cast<std::size_t>(peer)]);
  if (verdict == Verdict::applied) {
    packet.copy_values(values.data());
    const SlotHeader slot{.region_seq = packet.data.region_seq,
                          .tick = packet.data.tick,
                          .publish_mono_ns = monotonic_ns(),
                          .session_id = packet.head.session_id,
                          .status = static_cast<std::uint64_t>(
                              (packet.head.flags & kFlagRegionInvalid) != 0 ? SlotStatus::safe_state
                                                                            : SlotStatus::valid),
                          .value_count = packet.data.n,
                          .source_age_ns = packet.data.publish_age_ns + from_peer.rtt_ns / 2,
                          .reserved = 0};
    RegionView replica = image.region(packet.data.region_id);  // a pointer bundle
    replica.publish(slot, values.data());
  } else if (verdict == Verdict::ping) {
    bump(counters.pings);
    const PingFields echo{.ping_seq = packet.ping.ping_seq,
                          .ping_mono_ns = packet.ping.ping_mono_ns,
                          .ping_session_id = packet.ping.ping_session_id,
                          .send_unix_ns = unix_ns()};
    if (tx.full()) flush();
    const std::size_t size = encode_ping(tx.next(), head(PacketType::pong), echo, *sign_key);
    tx.push(size, from_peer.address);
  } else if (verdict == Verdict::pong) {
    const std::uint64_t now = monotonic_ns();
    if (from_peer.awaiting != 0 && packet.ping.ping_seq == from_peer.awaiting &&
        packet.ping.ping_session_id == session_id.load(std::memory_order_relaxed) &&
        packet.ping.ping_mono_ns <= now) {
      from_peer.awaiting = 0;
      from_peer.rtt_ns = now - packet.ping.ping_mono_ns;
      counters.rtt_us.store(from_peer.rtt_ns / 1000, std::memory_order_relaxed);
      peer_counters[static_cast<std::size_t>(peer)].rtt_us.store(from_peer.rtt_ns / 1000,
                                                                 std::memory_order_relaxed);
      bump(counters.pongs);
    }
  }
}

void Mirror::State::send_regions(std::uint64_t now) noexcept {
  for (SendRegion& r : sends) {
    const std::uint64_t latch = r.view.sequence();
    if (latch == r.last_latch || (latch & 1U) != 0) continue;  // unchanged, or mid-write
    if (min_interval_ns != 0 && r.last_send_mono != 0 && now - r.last_send_mono < min_interval_ns) {
      continue;  // rate limit: the latest snapshot goes out at the next allowed poll
    }
    const rt::LatchRead got = r.view.read(snapshot, kReadTries);
    if (!got.ok) {
      bump(counters.read_contention);
      continue;
    }
    if ((got.seq & 1U) != 0) continue;  // a write began: that was the previous copy
    r.last_latch = got.seq;
    if (snapshot.head.status == static_cast<std::uint64_t>(SlotStatus::not_initialized)) continue;
    if (snapshot.head.session_id == r.local_session && snapshot.head.region_seq == r.local_seq) {
      continue;  // the snapshot already sent (the latch moved without a new publish)
    }
    r.local_session = snapshot.head.session_id;
    r.local_seq = snapshot.head.region_seq;
    r.last_send_mono = now;
    const DataFields fields{.region_id = r.id,
                            .n = r.view.value_count(),
                            .region_seq = ++r.region_seq,
                            .tick = snapshot.head.tick,
                            .publish_age_ns = now > snapshot.head.publish_mono_ns
                                                  ? now - snapshot.head.publish_mono_ns
                                                  : 0,
                            .send_unix_ns = unix_ns(),
                            .region_schema_hash = r.schema_hash};
    PacketHead h = head(PacketType::data);
    h.flags = snapshot.head.status == static_cast<std::uint64_t>(SlotStatus::valid)
                  ? std::uint8_t{0}
                  : kFlagRegionInvalid;
    for (unsigned copy = 0; copy < config.send_repeat; ++copy) {
      // Each copy its own buffer (a repeat is re-flagged and re-signed), one entry per peer
      for (std::size_t i = 0; i < r.peers.size(); ++i) {
        const SocketAddress& to = peers[r.peers[i]].address;
        if (i > 0 && !tx.full()) {
          tx.copy_last(to);
          continue;
        }
        if (tx.full()) flush();
        const std::span<std::uint8_t> out = tx.next();
        const std::size_t size = encode_data(out, h, fields, snapshot.values, *sign_key);
        if (copy > 0) {
          reflag(out.first(size), static_cast<std::uint8_t>(h.flags | kFlagRepeatCopy), *sign_key);
        }
        tx.push(size, to);
      }
    }
  }
}

void Mirror::State::send_pings(std::uint64_t now) noexcept {
  if (ping_interval_ns == 0) return;
  for (PeerState& p : peers) {
    if (now < p.next_ping_mono) continue;
    p.next_ping_mono = now + ping_interval_ns;
    p.awaiting = ++p.ping_seq;
    const PingFields fields{.ping_seq = p.ping_seq,
                            .ping_mono_ns = now,
                            .ping_session_id = session_id.load(std::memory_order_relaxed),
                            .send_unix_ns = unix_ns()};
    if (tx.full()) flush();
    const std::size_t size = encode_ping(tx.next(), head(PacketType::ping), fields, *sign_key);
    tx.push(size, p.address);
  }
}

void Mirror::State::flush() noexcept {
  if (tx.empty()) return;
  const SendResult r = tx.flush(socket->fd());
  if (r.sent != 0) bump(counters.tx, r.sent);
  if (r.dropped != 0) bump(counters.send_dropped, r.dropped);
  if (r.errors != 0) bump(counters.send_errors, r.errors);
}

}  // namespace hil::io::bus::mirror
