// The bus under writers that die or stop at any instant (docs/bus.md "Failures"): a forked
// writer publishing flat out is SIGKILLed at seeded random moments and restarted, 1000 times,
// while this process reads through the RT-style bounded read and through BusClient. Then a
// writer stopped between latch steps: every bounded read still succeeds in one try.
#include <gtest/gtest.h>

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "io/bus/bus_image.hpp"
#include "io/bus/client/attach_server.hpp"
#include "io/bus/client/bus_client.hpp"
#include "tests/io/bus/client/bus_fixture.hpp"

namespace hil::io::bus {
namespace {

constexpr std::uint32_t kRegion = 0;

/// One input region of the maximum size: a torn read would mix two counters.
BusSchema wide_bus() {
  BusSchema s{.name = "killloop"};
  RegionSchema r{.name = "load", .direction = RegionDirection::input, .writer = "loader"};
  for (std::size_t i = 0; i < kMaxRegionValues; ++i) {
    r.channels.push_back({"load.v" + std::to_string(i), "-"});
  }
  s.regions.push_back(r);
  s.regions.push_back({.name = "state",
                       .direction = RegionDirection::output,
                       .writer = "hilsim",
                       .channels = {{"x", "-"}}});
  return s;
}

/// In the child: attach as the writer (retrying while the last one's lease is being freed).
std::unique_ptr<BusClient> attach_writer(const std::filesystem::path& endpoint) {
  AttachSpec o;
  o.role = "loader";
  o.client_name = "kill_loop_writer";
  BusStatus s = BusStatus::io_error;
  std::string why;
  for (int i = 0; i < 20000; ++i) {
    auto c = BusClient::attach(endpoint, o, s, why);
    if (c) return c;
    if (s != BusStatus::role_taken) break;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return nullptr;
}

/// In the child: publish counter c as every value, c = region_seq = 1, 2, ... until killed.
[[noreturn]] void publish_forever(const std::filesystem::path& endpoint) {
  auto c = attach_writer(endpoint);
  if (!c) _exit(3);
  double v[kMaxRegionValues];
  for (std::uint64_t n = 1;; ++n) {
    std::fill(v, v + kMaxRegionValues, static_cast<double>(n));
    if (c->write(kRegion, v, kMaxRegionValues, static_cast<std::int64_t>(n)) != BusStatus::ok) {
      _exit(4);
    }
  }
}

struct Tally {
  std::uint64_t reads = 0, ok = 0, contention = 0, torn = 0;
  std::uint64_t max_ns = 0;
};

/// Checks one ok snapshot: every value equals region_seq.
bool consistent(const RegionSnapshot& s) {
  const double expect = static_cast<double>(s.head.region_seq);
  if (s.head.value_count != kMaxRegionValues) return false;
  for (std::size_t i = 0; i < kMaxRegionValues; ++i) {
    if (s.values[i] != expect) return false;
  }
  return static_cast<double>(s.head.tick) == expect;
}

TEST(KillLoopTest, ReadersNeverSeeATornSnapshotWhileWritersAreKilledAtRandom) {
  test::RuntimeDir dir;
  BusImage image(wide_bus());
  AttachServer server(image, dir.endpoint("killloop"));
  BusStatus status = BusStatus::io_error;
  std::string why;
  auto reader = BusClient::attach(dir.endpoint("killloop"), {}, status, why);
  ASSERT_TRUE(reader) << why;
  const RegionView& rt_view = image.region(kRegion);

  std::mt19937_64 rng(20240611);
  std::uniform_int_distribution<int> delay_us(0, 2000);
  Tally rt, client;
  std::uint64_t previous_session = 0, restarts_seen = 0, hangs = 0;
  RegionSnapshot snap;
  auto read_both = [&](std::uint64_t& session_seen) {
    auto t0 = std::chrono::steady_clock::now();
    const rt::LatchRead r = rt_view.read(snap, 3);
    auto ns = static_cast<std::uint64_t>((std::chrono::steady_clock::now() - t0).count());
    ++rt.reads;
    rt.max_ns = std::max(rt.max_ns, ns);
    if (!r.ok) {
      ++rt.contention;
    } else if (snap.head.region_seq != 0) {
      ++rt.ok;
      if (!consistent(snap)) ++rt.torn;
      session_seen = snap.head.session_id;
    }
    t0 = std::chrono::steady_clock::now();
    const BusStatus s = reader->read(kRegion, snap, 1000);
    ns = static_cast<std::uint64_t>((std::chrono::steady_clock::now() - t0).count());
    ++client.reads;
    client.max_ns = std::max(client.max_ns, ns);
    if (s == BusStatus::contention) {
      ++client.contention;
    } else if (s == BusStatus::ok) {
      ++client.ok;
      if (!consistent(snap)) ++client.torn;
    }
    sched_yield();  // two cores: leave the writer its share
  };

  const auto started = std::chrono::steady_clock::now();
  constexpr int kRounds = 1000;
  for (int round = 0; round < kRounds; ++round) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) publish_forever(dir.endpoint("killloop"));
    // Until this writer's first snapshot shows (a new session), at most 2 s
    std::uint64_t session = previous_session;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (session == previous_session && std::chrono::steady_clock::now() < deadline) {
      read_both(session);
      // The new writer attaches meanwhile (fork, connect, map): leave it the CPU
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    if (session == previous_session) {
      ++hangs;
    } else {
      ++restarts_seen;
      previous_session = session;
    }
    const auto kill_at =
        std::chrono::steady_clock::now() + std::chrono::microseconds(delay_us(rng));
    while (std::chrono::steady_clock::now() < kill_at) read_both(session);
    kill(child, SIGKILL);
    int wstatus = 0;
    ASSERT_EQ(waitpid(child, &wstatus, 0), child);
    ASSERT_TRUE(WIFSIGNALED(wstatus)) << "the writer exited on its own: " << wstatus;
    read_both(session);  // right after the death
    if (::testing::Test::HasFatalFailure() || hangs > 0) break;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(rt.torn, 0U);
  EXPECT_EQ(client.torn, 0U);
  EXPECT_EQ(hangs, 0U) << "a restarted writer's first snapshot never showed";
  EXPECT_EQ(restarts_seen, static_cast<std::uint64_t>(kRounds));
  EXPECT_GT(rt.ok, static_cast<std::uint64_t>(kRounds));
  EXPECT_GT(client.ok, static_cast<std::uint64_t>(kRounds));
  RecordProperty("rounds", kRounds);
  RecordProperty("seconds", std::to_string(seconds));
  RecordProperty("rt_reads", std::to_string(rt.reads));
  RecordProperty("rt_contention", std::to_string(rt.contention));
  RecordProperty("rt_max_read_ns", std::to_string(rt.max_ns));
  RecordProperty("client_reads", std::to_string(client.reads));
  RecordProperty("client_contention", std::to_string(client.contention));
  RecordProperty("client_max_read_ns", std::to_string(client.max_ns));
  std::printf(
      "kill loop: %d rounds in %.2f s; RT reads %llu (contention %llu, max %llu ns); "
      "client reads %llu (contention %llu, max %llu ns); torn %llu/%llu\n",
      kRounds, seconds, static_cast<unsigned long long>(rt.reads),
      static_cast<unsigned long long>(rt.contention), static_cast<unsigned long long>(rt.max_ns),
      static_cast<unsigned long long>(client.reads),
      static_cast<unsigned long long>(client.contention),
      static_cast<unsigned long long>(client.max_ns), static_cast<unsigned long long>(rt.torn),
      static_cast<unsigned long long>(client.torn));
}

class StoppedWriterTest : public ::testing::TestWithParam<int> {};

TEST_P(StoppedWriterTest, BoundedReadsSucceedInOneTryWithTheLastCompleteSnapshot) {
  const int stop_step = GetParam();
  test::RuntimeDir dir;
  BusImage image(wide_bus());
  AttachServer server(image, dir.endpoint("killloop"));
  constexpr std::uint64_t kComplete = 100;
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto c = attach_writer(dir.endpoint("killloop"));
    if (!c) _exit(3);
    double v[kMaxRegionValues];
    for (std::uint64_t n = 1; n <= kComplete + 1; ++n) {
      std::fill(v, v + kMaxRegionValues, static_cast<double>(n));
      RegionWriter* w = c->writer(kRegion);
      w->publish(v, static_cast<std::int64_t>(n), monotonic_ns(), SlotStatus::valid, 0,
                 [&](int step) noexcept {
                   if (n == kComplete + 1 && step == stop_step) raise(SIGSTOP);
                 });
    }
    _exit(0);
  }
  int wstatus = 0;
  ASSERT_EQ(waitpid(child, &wstatus, WUNTRACED), child);
  ASSERT_TRUE(WIFSTOPPED(wstatus)) << "the writer did not stop mid-latch";
  ASSERT_EQ(image.region(kRegion).sequence() % 2, 1U) << "stopped with the counter odd";

  BusStatus status = BusStatus::io_error;
  std::string why;
  auto reader = BusClient::attach(dir.endpoint("killloop"), {}, status, why);
  ASSERT_TRUE(reader) << why;
  constexpr int kReads = 10000;
  std::vector<std::uint64_t> ns(kReads);
  RegionSnapshot snap;
  int not_one_try = 0, wrong = 0;
  const RegionView& view = image.region(kRegion);
  for (int i = 0; i < kReads; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const rt::LatchRead r = view.read(snap, 3);
    ns[static_cast<std::size_t>(i)] =
        static_cast<std::uint64_t>((std::chrono::steady_clock::now() - t0).count());
    if (!r.ok || r.tries != 1) ++not_one_try;
    if (!r.ok || snap.head.region_seq != kComplete || !consistent(snap)) ++wrong;
  }
  ASSERT_EQ(reader->read(kRegion, snap, 1), BusStatus::ok);
  EXPECT_EQ(snap.head.region_seq, kComplete);
  EXPECT_TRUE(consistent(snap));
  kill(child, SIGKILL);
  waitpid(child, &wstatus, 0);

  EXPECT_EQ(not_one_try, 0);
  EXPECT_EQ(wrong, 0);
  std::sort(ns.begin(), ns.end());
  const auto median = ns[ns.size() / 2], max = ns.back();
  RecordProperty("stop_step", stop_step);
  RecordProperty("read_median_ns", std::to_string(median));
  RecordProperty("read_p99_ns", std::to_string(ns[ns.size() * 99 / 100]));
  RecordProperty("read_max_ns", std::to_string(max));
  std::printf(
      "writer stopped after latch step %d: %d reads of 168 values, median %llu ns, "
      "p99 %llu ns, max %llu ns\n",
      stop_step, kReads, static_cast<unsigned long long>(median),
      static_cast<unsigned long long>(ns[ns.size() * 99 / 100]),
      static_cast<unsigned long long>(max));
}

INSTANTIATE_TEST_SUITE_P(LatchSteps, StoppedWriterTest, ::testing::Values(1, 2));

TEST(WriterTakeoverTest, ANewWriterRepairsTheCopyADeadWriterTore) {
  // A writer that died while writing copy 1 (the latch's last step) leaves copy 1 torn and the
  // counter even; the next writer's first step sends readers to copy 1. Its attach must first
  // repair the copy (LatchView::recover), or readers accept the torn one.
  test::RuntimeDir dir;
  BusImage image(wide_bus());
  AttachServer server(image, dir.endpoint("killloop"));
  {
    auto first = attach_writer(dir.endpoint("killloop"));
    ASSERT_TRUE(first);
    double v[kMaxRegionValues];
    for (std::uint64_t n = 1; n <= 100; ++n) {
      std::fill(v, v + kMaxRegionValues, static_cast<double>(n));
      ASSERT_EQ(first->write(kRegion, v, kMaxRegionValues, static_cast<std::int64_t>(n)),
                BusStatus::ok);
    }
  }
  // Tear copy 1 as a death halfway through step 4 would: the first values of the next snapshot
  const Segment& in = image.segment(image.segment_of_region(kRegion));
  std::string why;
  const auto directory = parse_segment(in.data(), in.size(), why);
  ASSERT_TRUE(directory) << why;
  const RegionDescriptor& d = directory->regions[0];
  auto* slot1 = reinterpret_cast<std::uint64_t*>(in.data() + d.slot_offset + d.slot_stride);
  ASSERT_EQ(image.region(kRegion).sequence() % 2, 0U);
  slot1[0] = 101;  // region_seq
  const double next = 101.0;
  for (std::size_t i = 0; i < kMaxRegionValues / 2; ++i) {
    std::memcpy(slot1 + kSlotHeaderWords + i, &next, sizeof next);
  }

  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto c = attach_writer(dir.endpoint("killloop"));
    if (!c) _exit(3);
    double v[kMaxRegionValues];
    std::fill(v, v + kMaxRegionValues, 1.0);
    c->writer(kRegion)->publish(v, 1, monotonic_ns(), SlotStatus::valid, 0, [](int step) noexcept {
      if (step == 1) raise(SIGSTOP);
    });
    _exit(0);
  }
  int wstatus = 0;
  ASSERT_EQ(waitpid(child, &wstatus, WUNTRACED), child);
  ASSERT_TRUE(WIFSTOPPED(wstatus));
  RegionSnapshot snap;
  const rt::LatchRead r = image.region(kRegion).read(snap, 3);
  kill(child, SIGKILL);
  waitpid(child, &wstatus, 0);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(snap.head.region_seq, 100U);
  EXPECT_TRUE(consistent(snap)) << "readers were sent to the torn copy: value 0 = "
                                << snap.values[0] << ", value 167 = " << snap.values[167];
}

}  // namespace
}  // namespace hil::io::bus
