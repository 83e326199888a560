// io/bus/mirror/mirror.hpp end to end through a seeded lossy relay on 127.0.0.1 (brief goals
// A10–A12): mirror A sends "state" to B through drops, duplicates, reordering, bit flips,
// truncation, a 500 ms burst loss, a sender restart and replays of the old session; B sends
// "battery" back untouched. Everything is asserted from counters against the relay's log:
//   - the receiver's applied, lost, duplicates, reordered, old_session and writer_restarts
//     equal exactly what the receiver rules give on the relay's log of intact packets in
//     forwarding order (lost = region_seq values of a session never applied, receiver.hpp);
//   - every corrupted or truncated packet is refused (malformed/schema/auth_failed);
//   - a reader of B's replica sees region_seq strictly increase within a session, and every
//     snapshot's values pass their checksum.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "io/bus/mirror/mirror.hpp"
#include "tests/io/bus/mirror/lossy_relay.hpp"
#include "tests/io/bus/mirror/mirror_test_support.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::bus::mirror {
namespace {

using namespace std::chrono_literals;

constexpr std::size_t kStateValues = 8;

/// The receiver rules (receiver.hpp) over the relay's log: what B must have counted.
struct Expected {
  std::uint64_t applied = 0, lost = 0, duplicates = 0, reordered = 0, old_session = 0, restarts = 0;
};
Expected simulate(const std::vector<test::Forwarded>& log) {
  Expected e;
  bool has = false;
  test::Forwarded cur{};
  for (const test::Forwarded& f : log) {
    if (!has) {
      has = true;
    } else if (f.session_id == cur.session_id && f.session_start == cur.session_start) {
      if (f.region_seq == cur.region_seq) {
        ++e.duplicates;
        continue;
      }
      if (f.region_seq < cur.region_seq) {
        ++e.reordered;
        continue;
      }
      e.lost += f.region_seq - cur.region_seq - 1;
    } else if (f.session_start > cur.session_start) {
      ++e.restarts;
      e.lost += f.region_seq - 1;
    } else {
      ++e.old_session;
      continue;
    }
    cur = f;
    ++e.applied;
  }
  return e;
}

void fill(double* v, std::uint64_t k) {
  for (std::size_t i = 0; i + 1 < kStateValues; ++i) v[i] = static_cast<double>(k + i);
  v[kStateValues - 1] = static_cast<double>(k * 7 + 3);  // checksum
}
bool check(const double* v, std::int64_t tick) {
  const auto k = static_cast<std::uint64_t>(v[0]);
  if (static_cast<std::int64_t>(k) != tick) return false;
  for (std::size_t i = 0; i + 1 < kStateValues; ++i) {
    if (v[i] != static_cast<double>(k + i)) return false;
  }
  return v[kStateValues - 1] == static_cast<double>(k * 7 + 3);
}

/// Reads B's replica of "state" until stopped; counts order and checksum violations.
struct ReplicaReader {
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> reads{0}, changes{0}, order_violations{0}, corrupt{0};

  void run(const RegionView& view) {
    RegionSnapshot s;
    std::uint64_t session = 0, seq = 0;
    std::int64_t tick = 0;
    while (!stop.load(std::memory_order_relaxed)) {
      const rt::LatchRead r = view.read(s, 3);
      if (r.ok && s.head.region_seq != 0) {
        reads.fetch_add(1, std::memory_order_relaxed);
        if (!check(s.values, s.head.tick)) corrupt.fetch_add(1, std::memory_order_relaxed);
        // A read under an odd latch counter returns the previous complete copy: compare
        // the heads, not the counter
        if (s.head.session_id != session || s.head.region_seq != seq) {
          changes.fetch_add(1, std::memory_order_relaxed);
          if (s.head.session_id == session && (s.head.region_seq < seq || s.head.tick < tick)) {
            order_violations.fetch_add(1, std::memory_order_relaxed);
          }
          session = s.head.session_id;
          seq = s.head.region_seq;
          tick = s.head.tick;
        }
      }
      std::this_thread::sleep_for(20us);
    }
  }
};

std::uint16_t port_of(const std::string& address) {
  return static_cast<std::uint16_t>(std::stoi(address.substr(address.rfind(':') + 1)));
}

TEST(MirrorRelayTest, LossDuplicationReorderCorruptionBurstRestartAndReplay) {
  const config::testing::TempDir dir;
  const std::filesystem::path key = dir.path() / "bus.key";
  write_new_key(key);
  BusImage a_image(test::two_region_schema(kStateValues));
  BusImage b_image(test::two_region_schema(kStateValues));
  test::LossyRelay relay({.drop = 0.10,
                          .duplicate = 0.02,
                          .reorder = 0.05,
                          .reorder_depth = 4,
                          .corrupt = 0.01,
                          .truncate = 0.01,
                          .capture = 0.01},
                         20240611);
  MirrorLinkSpec ca;
  ca.peers.push_back({"127.0.0.1:" + std::to_string(relay.a_side_port()), {"state"}, {"battery"}});
  ca.key_file = key;
  ca.max_rate_hz = 0;
  ca.ping_interval_s = 0.2;
  ca.poll_us = 50;
  MirrorLinkSpec cb = ca;
  cb.peers = {{"127.0.0.1:" + std::to_string(relay.b_side_port()), {"battery"}, {"state"}}};
  cb.receive_budget = 1'000'000;  // the relay's replays come in bursts: no budget drops here
  auto a = std::make_unique<Mirror>(a_image, ca);
  Mirror b(b_image, cb);
  relay.start(port_of(a->local_address()), port_of(b.local_address()));
  a->start();
  b.start();
  ReplicaReader reader;
  std::thread reading([&] { reader.run(b_image.region(0)); });

  RegionWriter state(a_image.region(0), 1);
  RegionWriter battery(b_image.region(1), 2);
  std::uint64_t k = 0;
  auto publish = [&](std::size_t count) {
    double v[kStateValues];
    for (std::size_t i = 0; i < count; ++i) {
      ++k;
      fill(v, k);
      state.publish(v, static_cast<std::int64_t>(k), monotonic_ns());
      if (k % 50 == 0) {
        const double cell[3] = {static_cast<double>(k), 1, 2};
        battery.publish(cell, static_cast<std::int64_t>(k), monotonic_ns());
      }
      std::this_thread::sleep_for(60us);  // lets the sender see most snapshots
    }
  };

  publish(12'000);
  relay.set_burst_loss(true);
  const auto burst_end = std::chrono::steady_clock::now() + 500ms;
  while (std::chrono::steady_clock::now() < burst_end) publish(1);
  relay.set_burst_loss(false);
  publish(3'000);
  const std::uint64_t old_session = a->session_id();

  // Sender restart on the same address; the relay replays captured old packets after the
  // first packet of the new session
  std::this_thread::sleep_for(20ms);
  const std::string a_address = a->local_address();
  a.reset();
  relay.replay_after_restart();
  ca.bind = a_address;
  a = std::make_unique<Mirror>(a_image, ca);
  a->start();
  ASSERT_NE(a->session_id(), old_session);
  publish(8'000);

  // Quiesce: everything the relay sent has been read
  const auto limit = std::chrono::steady_clock::now() + 5s;
  std::uint64_t stable_rx = 0;
  int stable = 0;
  while (std::chrono::steady_clock::now() < limit && stable < 20) {
    std::this_thread::sleep_for(5ms);
    const std::uint64_t rx = b.counters().rx.load();
    stable = (rx == relay.truth().to_b && rx == stable_rx) ? stable + 1 : 0;
    stable_rx = rx;
  }
  a->stop();
  b.stop();
  relay.stop();
  reader.stop = true;
  reading.join();

  const test::LossyRelay::Truth t = relay.truth();
  const Expected e = simulate(t.intact);
  const MirrorCounters& c = b.counters();
  const RegionReceiveCounters& r = b.region_counters(0);
  ASSERT_EQ(c.rx.load(), t.to_b) << "the kernel dropped datagrams: the truth is incomplete";
  RecordProperty("snapshots_published", std::to_string(k));
  RecordProperty("intact_forwarded", std::to_string(t.intact.size()));
  RecordProperty("applied", std::to_string(r.applied.load()));
  RecordProperty("lost", std::to_string(r.lost.load()));
  std::printf(
      "published %lu, relay: intact %zu dropped %lu burst %lu dup %lu reorder %lu "
      "corrupt %lu truncate %lu replay %lu; B applied %lu lost %lu dup %lu reordered %lu "
      "old_session %lu restarts %lu; reader %lu reads %lu changes\n",
      static_cast<unsigned long>(k), t.intact.size(), static_cast<unsigned long>(t.dropped),
      static_cast<unsigned long>(t.burst_dropped), static_cast<unsigned long>(t.duplicated),
      static_cast<unsigned long>(t.reordered), static_cast<unsigned long>(t.corrupted),
      static_cast<unsigned long>(t.truncated), static_cast<unsigned long>(t.replayed),
      static_cast<unsigned long>(r.applied.load()), static_cast<unsigned long>(r.lost.load()),
      static_cast<unsigned long>(r.duplicates.load()),
      static_cast<unsigned long>(r.reordered.load()),
      static_cast<unsigned long>(r.old_session.load()),
      static_cast<unsigned long>(r.writer_restarts.load()),
      static_cast<unsigned long>(reader.reads.load()),
      static_cast<unsigned long>(reader.changes.load()));

  // The faults happened
  EXPECT_GT(t.intact.size(), 10'000U);
  EXPECT_GT(t.dropped, 500U);
  EXPECT_GT(t.burst_dropped, 100U);
  EXPECT_GT(t.duplicated, 50U);
  EXPECT_GT(t.reordered, 200U);
  EXPECT_GT(t.corrupted, 50U);
  EXPECT_GT(t.truncated, 50U);
  EXPECT_GT(t.replayed, 50U);
  // A10: counters equal the ground truth
  EXPECT_EQ(c.over_budget.load(), 0U);
  EXPECT_EQ(r.applied.load(), e.applied);
  EXPECT_EQ(r.lost.load(), e.lost);
  EXPECT_EQ(r.duplicates.load(), e.duplicates);
  EXPECT_EQ(r.reordered.load(), e.reordered);
  EXPECT_EQ(r.tick_regression.load(), 0U);
  EXPECT_EQ(c.lost.load(), e.lost);
  EXPECT_GT(e.lost, t.dropped / 2) << "drops of snapshots show up as lost";
  // A11: every corrupted or truncated packet refused, none applied
  EXPECT_EQ(c.malformed.load() + c.schema.load() + c.auth_failed.load() + c.unknown_source.load(),
            t.corrupted + t.truncated);
  EXPECT_GT(c.auth_failed.load(), 0U);
  EXPECT_EQ(reader.corrupt.load(), 0U);
  // A12: the restart accepted on its first packet, every replay refused
  EXPECT_EQ(r.writer_restarts.load(), 1U);
  EXPECT_EQ(e.restarts, 1U);
  EXPECT_EQ(r.old_session.load(), e.old_session);
  EXPECT_GE(r.old_session.load(), t.replayed);
  EXPECT_EQ(r.session_id.load(), a->session_id());
  // G3: order on the replica
  EXPECT_EQ(reader.order_violations.load(), 0U);
  EXPECT_GT(reader.changes.load(), 1000U);
  // The other direction passed untouched
  EXPECT_GT(a->region_counters(1).applied.load(), 0U);
  EXPECT_EQ(a->region_counters(1).lost.load(), 0U);
  EXPECT_EQ(a->counters().auth_failed.load(), 0U);
}

}  // namespace
}  // namespace hil::io::bus::mirror
