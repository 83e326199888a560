#include "rt_core/rt_log.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>
#include <thread>

namespace hil::rt {
namespace {

/// An spdlog logger whose output the test can read.
class CapturedLogger {
 public:
  explicit CapturedLogger(const char* pattern)
      : logger_("test", std::make_shared<spdlog::sinks::ostream_sink_st>(out_)) {
    logger_.set_pattern(pattern);
  }
  spdlog::logger& logger() { return logger_; }
  std::string take() {
    std::string text = out_.str();
    out_.str("");
    return text;
  }

 private:
  std::ostringstream out_;
  spdlog::logger logger_;
};

TEST(RtLog, EventsPostedOnOneThreadAreFormattedByTheDrainingThread) {
  CapturedLogger captured("%l %v");
  RtLog log(16);

  std::thread rt([&] {
    EXPECT_TRUE(log.post(RtLogLevel::warn, "overrun at tick {} late by {} ns", 42, 1500));
  });
  rt.join();
  EXPECT_EQ(log.drain(captured.logger()), 1U);

  EXPECT_EQ(captured.take(), "warning overrun at tick 42 late by 1500 ns\n");
}

TEST(RtLog, AFullRingDropsAndCountsAndTheDrainReportsTheLossOnce) {
  CapturedLogger captured("%v");
  RtLog log(4);

  int accepted = 0;
  for (int i = 0; i < 10; ++i) accepted += log.post(RtLogLevel::info, "event {}", i) ? 1 : 0;

  EXPECT_EQ(accepted, 4);
  EXPECT_EQ(log.dropped(), 6U);
  EXPECT_EQ(log.drain(captured.logger()), 4U);
  EXPECT_EQ(captured.take(),
            "event 0\nevent 1\nevent 2\nevent 3\n6 real-time log events dropped (ring full)\n");
  EXPECT_EQ(log.drain(captured.logger()), 0U);
  EXPECT_EQ(captured.take(), "");  // the loss is reported once
}

TEST(RtLog, DrainShowsAtMostMaxLinesAndSummarizesTheRest) {
  CapturedLogger captured("%v");
  RtLog log(16);
  for (int i = 0; i < 7; ++i) EXPECT_TRUE(log.post(RtLogLevel::warn, "overrun at tick {}", i));

  EXPECT_EQ(log.drain(captured.logger(), 2), 7U);

  EXPECT_EQ(captured.take(),
            "overrun at tick 0\noverrun at tick 1\n... and 5 more real-time events not shown\n");
}

TEST(SpscRing, TransfersEveryItemInOrderBetweenTwoThreads) {
  SpscRing<std::int64_t> ring(128);
  constexpr std::int64_t kItems = 200'000;
  std::thread producer([&] {
    for (std::int64_t i = 0; i < kItems;) {
      if (ring.try_push(i)) ++i;
    }
  });
  std::int64_t expected = 0;
  while (expected < kItems) {
    std::int64_t v = 0;
    if (ring.try_pop(v)) {
      ASSERT_EQ(v, expected);
      ++expected;
    }
  }
  producer.join();
  EXPECT_GT(ring.dropped(), 0U);  // the producer outran the consumer at times and was told
}

}  // namespace
}  // namespace hil::rt
