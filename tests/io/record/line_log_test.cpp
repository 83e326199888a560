// A run directory's text log (io/record/line_log.hpp): whole lines on a full disk, the first
// error kept, every line after it counted as dropped, a header that is not a line, synced no
// later than the flush interval.

#include "io/record/line_log.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cerrno>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

namespace hil::io::record {
namespace {

/// What reached the disk, and how often it was synced; refuses a write past `limit` bytes
/// whole (as FileSink does with a write the disk takes only in part).
class DiskSink final : public ByteSink {
 public:
  DiskSink(std::string& bytes, int& syncs, std::size_t limit)
      : bytes_(bytes), syncs_(syncs), limit_(limit) {}
  void write(std::span<const std::uint8_t> bytes) override {
    if (bytes_.size() + bytes.size() > limit_) {
      throw std::system_error(ENOSPC, std::generic_category(), "cannot write 'can.log'");
    }
    bytes_.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  void sync() override { ++syncs_; }

 private:
  std::string& bytes_;
  int& syncs_;
  std::size_t limit_;
};

std::string line(int i) { return fmt::format("{:06} {}\n", i, std::string(90, 'x')); }  // 98 B

TEST(LineLog, AFullDiskKeepsWholeLinesAndTheFirstErrorAndCountsTheRest) {
  std::string disk;
  int syncs = 0;
  LineLog log(std::make_unique<DiskSink>(disk, syncs, 100'000), "# header\n",
              std::chrono::hours(1));
  for (int i = 0; i < 2000; ++i) log.append(line(i));  // 196 kB: more than the disk holds
  log.flush();
  EXPECT_TRUE(log.failed());
  EXPECT_EQ(log.error(), "cannot write 'can.log': No space left on device");
  ASSERT_FALSE(disk.empty());
  EXPECT_EQ(disk.rfind("# header\n", 0), 0U);
  EXPECT_EQ(disk.back(), '\n');                                                  // whole lines only
  const std::uint64_t on_disk = std::count(disk.begin(), disk.end(), '\n') - 1;  // not the header
  EXPECT_EQ(disk.substr(disk.size() - 98), line(static_cast<int>(on_disk) - 1));
  LineLogCounters c = log.counters();
  EXPECT_EQ(c.lines_written, on_disk);
  EXPECT_EQ(c.lines_written + c.lines_dropped, 2000U);
  EXPECT_EQ(c.lines_durable, on_disk);  // what is on the disk: nothing more to come
  // After the error nothing more is written; every line is counted
  log.append(line(2000));
  log.drop(2);
  log.close();
  c = log.counters();
  EXPECT_EQ(c.lines_written + c.lines_dropped, 2003U);
  EXPECT_EQ(std::count(disk.begin(), disk.end(), '\n') - 1, static_cast<long>(on_disk));
  EXPECT_EQ(syncs, 0);
}

TEST(LineLog, LinesAreSyncedNoLaterThanTheFlushIntervalAndWhenClosed) {
  std::string disk;
  int syncs = 0;
  {
    LineLog log(std::make_unique<DiskSink>(disk, syncs, 1 << 20), {}, std::chrono::hours(1));
    log.append(line(0));
    log.flush_if_due();  // not due for an hour
    EXPECT_TRUE(disk.empty());
    EXPECT_EQ(log.counters().lines_durable, 0U);
    log.flush();
    EXPECT_EQ(disk, line(0));
    EXPECT_EQ(syncs, 1);
    EXPECT_EQ(log.counters().lines_durable, 1U);
    EXPECT_EQ(log.counters().flushes, 1U);
    log.append(line(1));
  }  // closed
  EXPECT_EQ(disk, line(0) + line(1));
  EXPECT_EQ(syncs, 2);

  std::string eager;
  LineLog log(std::make_unique<DiskSink>(eager, syncs, 1 << 20), {}, std::chrono::milliseconds(0));
  log.append(line(7));
  log.flush_if_due();  // due at once
  EXPECT_EQ(eager, line(7));
}

TEST(LineLog, ALineLongerThanAWriteIsWrittenWhole) {
  std::string disk;
  int syncs = 0;
  LineLog log(std::make_unique<DiskSink>(disk, syncs, 1 << 20));
  const std::string long_line = std::string(200'000, 'y') + "\n";
  log.append(line(0));
  log.append(long_line);
  log.append(line(1));
  log.close();
  EXPECT_EQ(disk, line(0) + long_line + line(1));
  EXPECT_EQ(log.counters().lines_written, 3U);
}

}  // namespace
}  // namespace hil::io::record
