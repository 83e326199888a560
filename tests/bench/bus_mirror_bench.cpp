// Bus UDP mirror costs (docs/bus.md "The UDP mirror"): encode + sign a 168-value snapshot
// (second argument: 1 = HMAC-SHA256 tag, wire v1; 2 = keyed BLAKE2b, wire v2);
// receive rules + verify + latch publish into the replica; publish → applied latency between
// two mirrors on 127.0.0.1 (p50/p99 counters); and signed datagrams per second one way from
// one mirror thread (4 regions of 168 values).
//   build/release/tests/bench/bus_mirror_bench

#include <arpa/inet.h>
#include <benchmark/benchmark.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "io/bus/bus_image.hpp"
#include "io/bus/mirror/mirror.hpp"
#include "io/bus/mirror/receiver.hpp"
#include "io/bus/mirror/wire.hpp"

namespace {

namespace bus = hil::io::bus;
namespace m = hil::io::bus::mirror;

bus::BusSchema schema_of(std::size_t regions, std::size_t values) {
  bus::BusSchema s{.name = "bench"};
  for (std::size_t r = 0; r < regions; ++r) {
    bus::RegionSchema region{.name = "r" + std::to_string(r), .writer = "w"};
    for (std::size_t i = 0; i < values; ++i) {
      region.channels.push_back({"r" + std::to_string(r) + ".c" + std::to_string(i), "-"});
    }
    s.regions.push_back(region);
  }
  return s;
}

m::MirrorKey bench_key() {
  std::array<std::uint8_t, m::MirrorKey::kBytes> raw{};
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<std::uint8_t>(7 * i);
  return m::MirrorKey::from_bytes(raw);
}

void BM_MirrorEncodeSign(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  std::vector<double> values(n, 1.25);
  std::array<std::uint8_t, m::kMaxDatagramBytes> buf{};
  const m::MirrorKey key = bench_key();
  m::DataFields f{.region_id = 0, .n = n};
  const auto tag = static_cast<m::TagKind>(state.range(1));
  std::uint64_t seq = 0;
  for (auto _ : state) {
    f.region_seq = ++seq;
    benchmark::DoNotOptimize(
        m::encode_data(buf, {.tag = tag, .key_id = 1, .packet_seq = seq}, f, values.data(), key));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * m::data_packet_bytes(n)));
}
BENCHMARK(BM_MirrorEncodeSign)->Args({168, 1})->Args({16, 1})->Args({168, 2})->Args({16, 2});

/// Receiver rules + HMAC verify + copy out + latch publish into the replica.
void BM_MirrorVerifyApply(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const bus::BusSchema schema = schema_of(1, n);
  bus::BusImage image(schema);
  m::KeyRing keys;
  keys.add(1, bench_key());
  m::ReceiveCounters totals;
  m::Receiver receiver(schema, keys, totals);
  receiver.expect(0, 0);
  const m::MirrorKey key = bench_key();
  constexpr std::size_t kBatch = 2048;
  const std::size_t size = m::data_packet_bytes(n);
  std::vector<std::uint8_t> packets(kBatch * size);
  std::vector<double> values(n, 3.5);
  std::uint64_t seq = 0;
  auto refill = [&] {
    for (std::size_t i = 0; i < kBatch; ++i) {
      ++seq;
      (void)m::encode_data({packets.data() + i * size, size},
                           {.key_id = 1,
                            .bus_schema_hash = schema.hash(),
                            .session_id = 1,
                            .session_start_unix_ns = 1,
                            .packet_seq = seq},
                           {.region_id = 0,
                            .n = n,
                            .region_seq = seq,
                            .tick = static_cast<std::int64_t>(seq),
                            .region_schema_hash = schema.region_hash(0)},
                           values.data(), key);
    }
  };
  refill();
  std::size_t next = 0;
  std::array<double, bus::kMaxRegionValues> out{};
  bus::RegionView replica = image.region(0);
  for (auto _ : state) {
    if (next == kBatch) {
      state.PauseTiming();
      refill();
      next = 0;
      state.ResumeTiming();
    }
    m::Packet p;
    if (receiver.accept({packets.data() + next * size, size}, 0, p) == m::Verdict::applied) {
      p.copy_values(out.data());
      replica.publish({.region_seq = p.data.region_seq, .tick = p.data.tick}, out.data());
    }
    ++next;
  }
  if (totals.applied.load() != static_cast<std::uint64_t>(state.iterations())) {
    state.SkipWithError("not every packet was applied");
  }
}
BENCHMARK(BM_MirrorVerifyApply)->Arg(168)->Arg(16);

struct KeyFile {
  std::filesystem::path path;
  KeyFile() {
    path = std::filesystem::temp_directory_path() /
           ("bus_mirror_bench_" + std::to_string(bus::random_u64()) + ".key");
    m::write_new_key(path);
  }
  ~KeyFile() { std::filesystem::remove(path); }
};

/// Two mirrors on 127.0.0.1, A sending every region to B.
struct Pair {
  KeyFile key;
  bus::BusImage a_image;
  bus::BusImage b_image;
  std::unique_ptr<m::Mirror> a;
  std::unique_ptr<m::Mirror> b;

  Pair(const bus::BusSchema& schema, std::uint32_t poll_us) : a_image(schema), b_image(schema) {
    std::vector<std::string> names;
    for (const auto& r : schema.regions) names.push_back(r.name);
    m::MirrorLinkSpec cb;
    cb.key_file = key.path;
    cb.max_rate_hz = 0;
    cb.poll_us = poll_us;
    cb.ping_interval_s = 0.1;
    cb.peers.push_back({"127.0.0.1:9", {}, names});  // fixed below once A has a port
    m::MirrorLinkSpec ca = cb;
    // B first on an ephemeral port, then A pointing at it; B accepts A's bound address
    const std::uint16_t a_port = free_port();
    ca.bind = "127.0.0.1:" + std::to_string(a_port);
    cb.peers[0].address = ca.bind;
    b = std::make_unique<m::Mirror>(b_image, cb);
    ca.peers[0] = {b->local_address(), names, {}};
    a = std::make_unique<m::Mirror>(a_image, ca);
    b->start();
    a->start();
  }
  /// A port that was free a moment ago (bind port 0, read it, close).
  static std::uint16_t free_port() {
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
  }
};

/// Publish on A → applied in B's replica (B's latch counter moves), one snapshot at a time.
void BM_LoopbackMirror(benchmark::State& state) {
  const bus::BusSchema schema = schema_of(1, 168);
  Pair pair(schema, static_cast<std::uint32_t>(state.range(0)));
  bus::RegionWriter writer(pair.a_image.region(0), 1);
  const bus::RegionView& replica = pair.b_image.region(0);
  std::vector<double> values(168, 0.5);
  std::vector<double> latency_us;
  latency_us.reserve(100'000);
  std::int64_t tick = 0;
  std::uint64_t timeouts = 0;
  for (auto _ : state) {
    const std::uint64_t before = replica.sequence();
    const std::uint64_t t0 = bus::monotonic_ns();
    writer.publish(values.data(), ++tick, t0);
    while (replica.sequence() == before) {
      if (bus::monotonic_ns() - t0 > 100'000'000) {
        ++timeouts;
        break;
      }
      std::this_thread::yield();
    }
    latency_us.push_back(static_cast<double>(bus::monotonic_ns() - t0) / 1e3);
  }
  std::sort(latency_us.begin(), latency_us.end());
  auto pct = [&](double q) {
    return latency_us.empty() ? 0.0
                              : latency_us[static_cast<std::size_t>(
                                    q * static_cast<double>(latency_us.size() - 1))];
  };
  state.counters["p50_us"] = pct(0.50);
  state.counters["p99_us"] = pct(0.99);
  state.counters["max_us"] = latency_us.empty() ? 0.0 : latency_us.back();
  state.counters["timeouts"] = static_cast<double>(timeouts);
  state.counters["rtt_us"] = static_cast<double>(pair.a->counters().rtt_us.load());
}
BENCHMARK(BM_LoopbackMirror)->Arg(100)->Arg(20)->UseRealTime()->Unit(benchmark::kMicrosecond);

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// Signed 168-value datagrams per second, one way, one mirror thread per side; 4 regions
/// published back to back. cpu_us_per_datagram is the whole process (both mirrors and the
/// publisher) per applied datagram: an upper bound for one side.
void BM_MirrorThroughput(benchmark::State& state) {
  constexpr std::size_t kRegions = 4;
  const bus::BusSchema schema = schema_of(kRegions, 168);
  Pair pair(schema, static_cast<std::uint32_t>(state.range(0)));
  std::atomic<bool> stop{false};
  std::thread publisher([&] {
    std::vector<bus::RegionWriter> writers;
    for (std::uint32_t r = 0; r < kRegions; ++r) writers.emplace_back(pair.a_image.region(r), 1);
    std::vector<double> values(168, 2.0);
    for (std::int64_t tick = 1; !stop.load(std::memory_order_relaxed); ++tick) {
      for (bus::RegionWriter& w : writers) w.publish(values.data(), tick, bus::monotonic_ns());
      std::this_thread::sleep_for(std::chrono::microseconds(5));
    }
  });
  std::uint64_t applied = 0;
  std::uint64_t sent = 0;
  double cpu = 0;
  double wall = 0;
  for (auto _ : state) {
    const std::uint64_t a0 = pair.b->counters().applied.load();
    const std::uint64_t s0 = pair.a->counters().tx.load();
    const double c0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cpu += cpu_seconds() - c0;
    applied += pair.b->counters().applied.load() - a0;
    sent += pair.a->counters().tx.load() - s0;
  }
  stop = true;
  publisher.join();
  state.counters["applied_per_s"] = static_cast<double>(applied) / wall;
  state.counters["sent_per_s"] = static_cast<double>(sent) / wall;
  state.counters["cpu_us_per_datagram"] =
      applied > 0 ? cpu * 1e6 / static_cast<double>(applied) : 0;
  state.counters["send_dropped"] = static_cast<double>(pair.a->counters().send_dropped.load());
  state.counters["lost"] = static_cast<double>(pair.b->counters().lost.load());
  state.counters["over_budget"] = static_cast<double>(pair.b->counters().over_budget.load());
}
BENCHMARK(BM_MirrorThroughput)
    ->Arg(20)
    ->Iterations(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
