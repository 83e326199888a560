// SIGKILL while recording: everything up to the last flush is readable, and nothing after a
// torn record is misread. A helper process records (record_kill_helper) and reports its
// flushes; this test kills it with SIGKILL after the second one, then reads the file with the
// product reader and with the independent spec reader.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "io/record/mapped_file.hpp"
#include "io/record/telemetry_reader.hpp"
#include "tests/io/record/recording_fixture.hpp"
#include "tests/io/record/spec_mcap_reader.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::record {
namespace {

/// Every sample's values against value_of(); the ticks of one topic.
class Checker final : public TelemetryVisitor {
 public:
  explicit Checker(const rt::ChannelTable& table) : table_(table) {}
  void on_topic(std::size_t, const TelemetryLayout& layout) override {
    layouts_.push_back(&layout);
  }
  void on_sample(std::size_t topic, std::uint64_t, const TelemetrySample& s) override {
    const TelemetryLayout& layout = *layouts_[topic];
    for (std::size_t c = 0; c < s.values.size(); ++c) {
      if (s.values[c] !=
          testing::value_of(s.tick, table_.resolve(layout.columns()[c].channel).index)) {
        ++wrong_values;
      }
    }
    if (layout.topic() == "/vehicle/battery") ticks.push_back(s.tick);
  }
  std::uint64_t wrong_values = 0;
  std::vector<std::int64_t> ticks;

 private:
  const rt::ChannelTable& table_;
  std::vector<const TelemetryLayout*> layouts_;
};

TEST(RecordKill, AfterSigkillEverythingUpToTheLastFlushIsReadable) {
  const config::testing::TempDir dir;
  const std::string file = (dir.path() / "telemetry.mcap").string();
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    execl(RECORD_KILL_HELPER, RECORD_KILL_HELPER, file.c_str(), "100", nullptr);
    _exit(127);
  }
  close(out[1]);
  FILE* lines = fdopen(out[0], "r");
  unsigned long long durable = 0;
  int flushes = 0;
  while (flushes < 2 && std::fscanf(lines, " durable %llu", &durable) == 1) ++flushes;
  usleep(30'000);  // let it write chunks past the flush: killed between flushes
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  std::fclose(lines);
  ASSERT_EQ(flushes, 2) << "the helper did not report two flushes";
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  ASSERT_GT(durable, 0U);

  const testing::VehicleTable table;
  const MappedFile mapped(file);
  Checker checker(table);
  const TelemetryReadReport report = read_telemetry(mapped.bytes(), checker);
  EXPECT_EQ(report.mcap.end, McapEnd::truncated) << report.mcap.problem;
  EXPECT_EQ(report.undecodable, 0U);
  EXPECT_EQ(checker.wrong_values, 0U);
  // Every flushed sample is there, in order, without a gap.
  ASSERT_GE(checker.ticks.size(), durable);
  for (std::size_t i = 0; i < checker.ticks.size(); ++i) {
    ASSERT_EQ(checker.ticks[i], static_cast<std::int64_t>(i));
  }
  // The independent reader sees the same prefix and no broken rule in it.
  const auto spec = hil::testing::mcap_spec::read(hil::testing::mcap_spec::load(file), true);
  EXPECT_TRUE(spec.violations.empty()) << ::testing::PrintToString(spec.violations);
  EXPECT_EQ(spec.messages.size(), report.mcap.messages);
  std::printf("killed after %llu durable samples; %zu samples readable, %llu of %zu bytes valid\n",
              durable, checker.ticks.size(),
              static_cast<unsigned long long>(report.mcap.valid_bytes), mapped.bytes().size());
}

}  // namespace
}  // namespace hil::io::record
