// rt_core/latch.hpp through io/bus/region.hpp: complete copies only, bounded reads, a writer
// stopped mid-latch leaves the previous snapshot readable.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "io/bus/bus_image.hpp"
#include "rt_core/latch.hpp"

namespace hil::io::bus {
namespace {

BusSchema schema_with(std::size_t n) {
  BusSchema s{.name = "latch_test"};
  RegionSchema r{.name = "state", .direction = RegionDirection::output, .writer = "hilsim"};
  for (std::size_t i = 0; i < n; ++i) r.channels.push_back({"c.v" + std::to_string(i), "-"});
  s.regions.push_back(r);
  return s;
}

TEST(LatchTest, ReadsWhatWasWritten) {
  std::uint64_t seq = 0, a[4] = {}, b[4] = {};
  rt::LatchView latch(&seq, a, b, 4);
  const std::uint64_t src[4] = {1, 2, 3, 4};
  latch.write(src, 4);
  std::uint64_t dst[4] = {};
  const rt::LatchRead r = latch.read(dst, 4, 3);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.tries, 1U);
  EXPECT_EQ(r.seq, 2U);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(dst[i], src[i]);
}

TEST(LatchTest, AWriterStoppedAtAnyStepLeavesTheLastCompleteCopy) {
  // Emulates a writer killed after each step of its second publish (the words frozen as they
  // were then): the reader sees the first snapshot until the counter turned even again (step
  // 3), then the second; never a mixture, always in one try.
  for (int stop_after = 1; stop_after <= 3; ++stop_after) {
    std::uint64_t seq = 0, a[3] = {}, b[3] = {};
    rt::LatchView latch(&seq, a, b, 3);
    const std::uint64_t first[3] = {7, 7, 7};
    latch.write(first, 3);
    // Stop the second write after `stop_after` steps by replaying only those steps by hand
    const std::uint64_t second[3] = {9, 9, 9};
    std::uint64_t copy_seq = seq, copy_a[3], copy_b[3];
    std::copy(a, a + 3, copy_a);
    std::copy(b, b + 3, copy_b);
    rt::LatchView partial(&copy_seq, copy_a, copy_b, 3);
    int reached = 0;
    std::uint64_t frozen_seq = 0, frozen_a[3] = {}, frozen_b[3] = {};
    partial.write(second, 3, [&](int step) noexcept {
      if (step == stop_after) {
        reached = step;
        frozen_seq = copy_seq;
        std::copy(copy_a, copy_a + 3, frozen_a);
        std::copy(copy_b, copy_b + 3, frozen_b);
      }
    });
    ASSERT_EQ(reached, stop_after);
    rt::LatchView dead(&frozen_seq, frozen_a, frozen_b, 3);
    std::uint64_t dst[3] = {};
    const rt::LatchRead r = dead.read(dst, 3, 1);
    ASSERT_TRUE(r.ok) << stop_after;
    const std::uint64_t expected = stop_after >= 3 ? 9 : 7;
    for (const std::uint64_t v : dst) EXPECT_EQ(v, expected) << "stopped after step " << stop_after;
  }
}

TEST(LatchTest, ThreadedTortureNeverTears) {
  // One writer publishes snapshots whose values all equal the sequence, plus a checksum;
  // three readers check every read. Bounded tries: a failed read is counted, never torn.
  BusImage image(schema_with(kMaxRegionValues));
  RegionWriter writer(image.region(0), 42);
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> torn{0}, reads{0}, contended{0};
  std::thread w([&] {
    std::vector<double> values(kMaxRegionValues);
    for (std::uint64_t k = 1; !stop.load(std::memory_order_relaxed); ++k) {
      for (double& v : values) v = static_cast<double>(k);
      writer.publish(values.data(), static_cast<std::int64_t>(k), k);
    }
  });
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      RegionSnapshot snap;
      const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
      while (std::chrono::steady_clock::now() < until) {
        const rt::LatchRead got = image.region(0).read(snap, 3);
        if (!got.ok) {
          contended.fetch_add(1, std::memory_order_relaxed);
          continue;
        }
        reads.fetch_add(1, std::memory_order_relaxed);
        if (snap.head.region_seq == 0) continue;  // nothing published yet
        const auto k = static_cast<double>(snap.head.tick);
        bool ok = snap.head.value_count == kMaxRegionValues &&
                  snap.head.region_seq == static_cast<std::uint64_t>(snap.head.tick) &&
                  snap.head.publish_mono_ns == static_cast<std::uint64_t>(snap.head.tick);
        for (std::size_t i = 0; i < kMaxRegionValues; ++i) ok = ok && snap.values[i] == k;
        if (!ok) torn.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  for (std::thread& t : readers) t.join();
  stop = true;
  w.join();
  EXPECT_EQ(torn.load(), 0U);
  EXPECT_GT(reads.load(), 1000U);
  RecordProperty("reads", std::to_string(reads.load()));
  RecordProperty("contended", std::to_string(contended.load()));
}

}  // namespace
}  // namespace hil::io::bus
