#include "io/can/mapping/last_payload.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace hil::io::can {
namespace {

TEST(LastPayload, EmptyUntilTheFirstFrameThenTheLastOne) {
  LastPayload last;
  EXPECT_FALSE(last.load().has_value());
  const std::vector<std::uint8_t> a{1, 2, 3};
  last.store(a);
  const auto first = last.load();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(std::vector<std::uint8_t>(first->payload().begin(), first->payload().end()), a);
  std::vector<std::uint8_t> fd(64);
  for (std::size_t i = 0; i < fd.size(); ++i) fd[i] = static_cast<std::uint8_t>(i * 3);
  last.store(fd);
  const auto f = last.load();
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(std::vector<std::uint8_t>(f->payload().begin(), f->payload().end()), fd);
}

// A reader racing a writer never sees a frame made of two frames: every stored frame has all
// bytes equal, so a torn read would show two different bytes.
TEST(LastPayload, AReaderNeverSeesATornFrame) {
  LastPayload last;
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> stores{0};
  std::thread writer([&] {
    std::vector<std::uint8_t> frame(64);
    for (std::uint64_t k = 0; !stop.load(std::memory_order_relaxed); ++k) {
      frame.assign(k % 2 == 0 ? 64 : 8, static_cast<std::uint8_t>(k));
      last.store(frame);
      stores.store(k + 1, std::memory_order_relaxed);
    }
  });
  std::size_t reads = 0;
  while (reads < 200000) {
    const auto f = last.load();
    if (!f) continue;
    ++reads;
    const auto p = f->payload();
    ASSERT_TRUE(p.size() == 64 || p.size() == 8);
    for (const std::uint8_t b : p) ASSERT_EQ(b, p[0]);
  }
  stop = true;
  writer.join();
  EXPECT_GT(stores.load(), 1000U) << "the writer ran alongside the reads";
}

}  // namespace
}  // namespace hil::io::can
