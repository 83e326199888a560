// BlfWriter (issue 19): what it writes, our reader reads back exactly — every kind of frame,
// several containers with objects running across them, the header's sizes and count — and
// python-can's BLFReader (the peer) reads the same frames.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/can/trace/asc_reader.hpp"
#include "io/can/trace/blf_reader.hpp"
#include "io/can/trace/blf_writer.hpp"
#include "tests/support/frame_helpers.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::can {
namespace {

struct Written {
  std::int64_t time_ns;
  std::uint16_t channel;
  CanFrame frame;
  bool transmitted;
};

/// Every kind of frame, `n` of them, 250 µs apart on channels 1 and 2.
std::vector<Written> frames(std::size_t n) {
  CanFrame error;
  error.id = kAscErrorFrameClass;
  error.flags = kError;
  error.length = 8;
  CanFrame fd64 = test::make_fd(0x00ABCDEF, 64, kExtended | kEsi);
  fd64.data.fill(0x5A);
  const std::vector<CanFrame> kinds{test::make_frame(0x123, {0xDE, 0xAD, 0xBE, 0xEF}),
                                    test::make_frame(0x1F334455, {0x11, 0x22}, kExtended),
                                    test::make_remote(0x456, 7),
                                    test::make_fd(0x321, 12, kBrs),
                                    fd64,
                                    error,
                                    test::make_frame(0x7FF, {})};
  std::vector<Written> out;
  for (std::size_t i = 0; i < n; ++i) {
    CanFrame f = kinds[i % kinds.size()];
    if (!f.error() && !f.remote() && f.length > 0) f.data[0] = static_cast<std::uint8_t>(i);
    out.push_back({.time_ns = static_cast<std::int64_t>(i) * 250'000 + 17,
                   .channel = static_cast<std::uint16_t>(1 + i % 2),
                   .frame = f,
                   .transmitted = i % 3 == 0});
  }
  return out;
}

TEST(BlfWriter, WhatItWritesReadsBackExactlyAcrossContainers) {
  const std::vector<Written> in = frames(6000);  // ~400 KiB of objects: 4 containers
  std::stringstream file;
  BlfWriter writer(file, 1'700'000'000'000'000'000);
  for (const Written& w : in) writer.add(w.time_ns, w.channel, w.frame, w.transmitted);
  writer.finish();
  EXPECT_EQ(writer.objects(), 6000U);

  const std::string bytes = file.str();
  std::uint64_t file_size = 0;
  std::uint32_t count = 0;
  std::memcpy(&file_size, bytes.data() + 16, sizeof(file_size));
  std::memcpy(&count, bytes.data() + 32, sizeof(count));
  EXPECT_EQ(file_size, bytes.size());
  EXPECT_EQ(count, 6000U);

  std::istringstream back(bytes);
  BlfReader reader(back, "out.blf");
  std::vector<BlfFrame> read;
  for (auto s = reader.next(); s != BlfReader::Status::end; s = reader.next()) {
    ASSERT_EQ(s, BlfReader::Status::frame) << reader.describe_bad_object();
    read.push_back(reader.frame());
  }
  EXPECT_EQ(reader.containers(), 4U);
  ASSERT_EQ(read.size(), in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(read[i].frame, in[i].frame) << i;
    EXPECT_EQ(read[i].time_ns, in[i].time_ns) << i;
    EXPECT_EQ(read[i].channel, in[i].channel) << i;
  }
}

TEST(BlfWriter, RefusesWhatBlfCannotHold) {
  std::stringstream file;
  BlfWriter writer(file, 0);
  CanFrame bad = test::make_frame(0x800, {1});  // 12 bits without the extended flag
  EXPECT_THROW(writer.add(0, 1, bad, false), std::invalid_argument);
  EXPECT_THROW(writer.add(0, 0, test::make_frame(0x1, {1}), false), std::invalid_argument);
  writer.finish();
  EXPECT_EQ(writer.objects(), 0U);
}

TEST(BlfWriter, PythonCanReadsTheFramesWeWrite) {
  if (testing::run_command("/usr/bin/python3 -c 'import can'").status != 0) {
    GTEST_SKIP() << "python3-can not installed (tools/install-deps.sh)";
  }
  const config::testing::TempDir dir;
  const auto path = dir.path() / "ours.blf";
  const std::vector<Written> in = frames(3000);
  {
    std::ofstream out(path, std::ios::binary);
    BlfWriter writer(out, 1'700'000'000'000'000'000);
    for (const Written& w : in) writer.add(w.time_ns, w.channel, w.frame, w.transmitted);
    writer.finish();
  }
  const auto run = testing::run_command("/usr/bin/python3 " HIL_SOURCE_DIR
                                        "/tests/io/can/trace/python_can_read_blf.py " +
                                        path.string());
  ASSERT_EQ(run.status, 0) << run.output;
  std::istringstream lines(run.output);
  std::string line;
  std::size_t i = 0;
  for (; std::getline(lines, line); ++i) {
    ASSERT_LT(i, in.size());
    const Written& w = in[i];
    const CanFrame& f = w.frame;
    std::string expected;
    if (f.error()) {
      expected = fmt::format("ch={} error", w.channel - 1);
    } else {
      std::string data;
      for (std::size_t b = 0; b < (f.remote() ? 0 : f.length); ++b) {
        data += fmt::format("{:02X}", f.data[b]);
      }
      expected = fmt::format("ch={} {:X} ext={} rtr={} fd={} brs={} esi={} rx={} dlc={} data={}",
                             w.channel - 1, f.id, int{f.extended()}, int{f.remote()}, int{f.fd()},
                             int{f.brs()}, int{f.esi()}, int{!w.transmitted}, f.length, data);
    }
    // python-can adds the header's start time to each offset in doubles of epoch seconds:
    // its times are ~0.2 µs off ours
    const std::size_t space = line.find(' ');
    EXPECT_NEAR(std::stod(line.substr(0, space)), static_cast<double>(w.time_ns), 1'000.0) << i;
    EXPECT_EQ(line.substr(space + 1), expected) << i;
  }
  EXPECT_EQ(i, in.size());
}

}  // namespace
}  // namespace hil::io::can
