// TelemetryPrefetch (tools/session/replay/telemetry_prefetch.hpp): the items come out in file
// order, and every item the consumer was handed goes back to the hook once, in file order, with
// the consumer's answer — on the reading thread while it reads, in finish() after it ended.

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include "tests/io/record/recording_fixture.hpp"
#include "tests/support/temp_dir.hpp"
#include "tools/session/replay/telemetry_prefetch.hpp"

namespace hil::session {
namespace {

using config::testing::TempDir;
using io::record::testing::RecordedRun;
using io::record::testing::VehicleTable;

// The topics (the four groups and the events), each before its samples, and the samples
constexpr std::size_t kItems = 5 + 4 * 6000;

/// What identifies an item: (topic, -1) for a topic, (topic, tick) for a sample.
std::pair<std::size_t, std::int64_t> key(const TelemetryItem& item) {
  return {item.topic, item.is_topic ? -1 : item.sample.tick};
}

struct HandedBack {
  std::vector<std::pair<std::size_t, std::int64_t>> items;
  std::size_t on_another_thread = 0;
  std::size_t answers_wrong = 0;
};

class Prefetch : public ::testing::Test {
 protected:
  // 6000 ticks of four topics: more items than the pool holds (64 × 256), so the reader
  // must take back batches while it reads
  void SetUp() override {
    io::record::testing::record_file(
        table_, dir_.path() / "t.mcap",
        RecordedRun{.ticks = 6000, .chunk_bytes = std::size_t{8} * 1024});
  }
  TelemetryPrefetch::HandedBack hook() {
    return [this](const TelemetryItem& item) {
      back_.items.push_back(key(item));
      if (std::this_thread::get_id() != consumer_) ++back_.on_another_thread;
      if (!item.is_topic && (!item.answered || item.replayed.size() != 1 ||
                             item.replayed[0] != -static_cast<double>(item.sample.tick))) {
        ++back_.answers_wrong;
      }
    };
  }
  /// Takes up to `limit` items, answering each sample with minus its tick.
  static std::vector<std::pair<std::size_t, std::int64_t>> consume(TelemetryPrefetch& p,
                                                                   std::size_t limit) {
    std::vector<std::pair<std::size_t, std::int64_t>> handed;
    while (handed.size() < limit) {
      TelemetryItem* item = p.next();
      if (item == nullptr) break;
      handed.push_back(key(*item));
      if (!item->is_topic) {
        item->replayed.assign(1, -static_cast<double>(item->sample.tick));
        item->answered = true;
      }
    }
    return handed;
  }

  TempDir dir_;
  VehicleTable table_;
  HandedBack back_;  // the hook's: read after finish()
  std::thread::id consumer_ = std::this_thread::get_id();
};

TEST_F(Prefetch, EveryItemComesBackOnceInFileOrderWithItsAnswer) {
  TelemetryPrefetch p({dir_.path() / "t.mcap"}, hook());
  const auto handed = consume(p, SIZE_MAX);
  const io::record::TelemetryReadReport report = p.finish();
  EXPECT_EQ(report.samples, 4U * 6000);
  ASSERT_EQ(handed.size(), kItems);
  EXPECT_EQ(back_.items, handed);
  EXPECT_EQ(back_.answers_wrong, 0U);
  EXPECT_GT(back_.on_another_thread, 0U);             // compared while the loop ran
  EXPECT_LT(back_.on_another_thread, handed.size());  // the last ones in finish()
  // File order: each topic's ticks 0, 1, 2, …
  std::vector<std::int64_t> next_tick(4, 0);
  for (const auto& [topic, tick] : handed) {
    if (tick < 0) continue;
    ASSERT_LT(topic, 4U);
    EXPECT_EQ(tick, next_tick[topic]++);
  }
}

TEST_F(Prefetch, AConsumerThatStopsEarlyGetsBackWhatItWasHandedAndNoMore) {
  TelemetryPrefetch p({dir_.path() / "t.mcap"}, hook());
  const auto handed = consume(p, 20000);  // past the first pool, short of the end
  ASSERT_EQ(handed.size(), 20000U);
  (void)p.finish();
  EXPECT_EQ(back_.items, handed);
  EXPECT_EQ(back_.answers_wrong, 0U);
}

TEST_F(Prefetch, WithoutAHookItOnlyReads) {
  TelemetryPrefetch p({dir_.path() / "t.mcap"});
  EXPECT_EQ(consume(p, SIZE_MAX).size(), kItems);
  EXPECT_EQ(p.finish().samples, 4U * 6000);
}

}  // namespace
}  // namespace hil::session
