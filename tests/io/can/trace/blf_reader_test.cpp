// Vector BLF traces (issue 19): files built here byte by byte — every object kind we read,
// containers stored and zlib-compressed, an object split across two containers, both timestamp
// units — and the bad ones (a container that does not inflate, bytes where an object should be,
// a file cut short); then BLF written by python-can (the peer the issue names), read like the
// candump log it was converted from.

#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "io/can/trace/asc_reader.hpp"
#include "io/can/trace/blf_reader.hpp"
#include "io/can/trace/trace_loader.hpp"
#include "tests/io/can/trace/blf_bytes.hpp"
#include "tests/support/frame_helpers.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/sample_log.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::can {
namespace {

using namespace blf_bytes;  // the BLF byte builders
constexpr const char* kPython = "/usr/bin/python3";

struct Read {
  std::vector<BlfFrame> frames;
  std::vector<std::string> bad;
  std::size_t error_frames = 0;
  std::size_t other = 0;
  std::size_t containers = 0;
};

Read read_all(const std::string& bytes) {
  std::istringstream in(bytes);
  BlfReader reader(in, "t.blf");
  Read out;
  for (auto s = reader.next(); s != BlfReader::Status::end; s = reader.next()) {
    if (s == BlfReader::Status::frame) out.frames.push_back(reader.frame());
    if (s == BlfReader::Status::bad_object) out.bad.push_back(reader.describe_bad_object());
  }
  out.error_frames = reader.error_frames();
  out.other = reader.other_objects();
  out.containers = reader.containers();
  EXPECT_EQ(reader.frames(), out.frames.size());
  EXPECT_EQ(reader.bad_objects(), out.bad.size());
  return out;
}

/// The stream of every kind of object we read (and a marker we skip).
Bytes every_kind() {
  Bytes stream;
  for (const Bytes& o : {
           object(1, classic(1, 0x123, {0xDE, 0xAD, 0xBE, 0xEF}), 1'000),
           object(86, classic(2, 0x8000'0000 | 0x1F334455, {0x11, 0x22}), 2'000),
           object(1, classic(1, 0x456, {}, 0x80, 7), 300, kTenMicroseconds),  // remote, 3 ms
           object(100, fd(1, 0x321, 9, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 0x1 | 0x2), 4'000),
           object(96, Bytes(40, 0), 4'500),  // GLOBAL_MARKER: skipped
           object(101, fd64(2, 0x8000'0000 | 0xABCDEF, 15, Bytes(64, 0x5A), 0x1000 | 0x4000),
                  5'000),
           object(73, error_ext(1), 6'000),
           object(100, fd(1, 0x7FF, 3, {1, 2, 3}, 0), 7'000),  // EDL clear: a classic frame
       }) {
    put_bytes(stream, o);
  }
  return stream;
}

void expect_every_kind(const std::vector<BlfFrame>& frames) {
  using test::make_fd;
  using test::make_frame;
  using test::make_remote;
  ASSERT_EQ(frames.size(), 7U);
  CanFrame error;
  error.id = kAscErrorFrameClass;
  error.flags = kError;
  error.length = 8;
  const std::vector<CanFrame> expected{
      make_frame(0x123, {0xDE, 0xAD, 0xBE, 0xEF}),
      make_frame(0x1F334455, {0x11, 0x22}, kExtended),
      make_remote(0x456, 7),
      make_fd(0x321, 12, kBrs),
      [] {
        CanFrame f = make_fd(0x00ABCDEF, 64, kExtended | kEsi);
        f.data.fill(0x5A);
        return f;
      }(),
      error,
      make_frame(0x7FF, {1, 2, 3}),
  };
  const std::vector<std::int64_t> times{1'000, 2'000, 3'000'000, 4'000, 5'000, 6'000, 7'000};
  const std::vector<std::uint32_t> channels{1, 2, 1, 1, 2, 1, 1};
  for (std::size_t i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(frames[i].frame, expected[i]) << i;
    EXPECT_EQ(frames[i].time_ns, times[i]) << i;
    EXPECT_EQ(frames[i].channel, channels[i]) << i;
  }
}

TEST(BlfReader, ReadsEveryKindOfFrameAcrossStoredAndCompressedContainers) {
  const Bytes stream = every_kind();
  // Three containers, cut inside objects: stored, zlib, zlib.
  const std::size_t a = 50;
  const std::size_t b = 300;
  const Read read = read_all(file({
      container({stream.begin(), stream.begin() + a}, false),
      container({stream.begin() + a, stream.begin() + b}, true),
      container({stream.begin() + b, stream.end()}, true),
  }));
  EXPECT_TRUE(read.bad.empty()) << read.bad.front();
  expect_every_kind(read.frames);
  EXPECT_EQ(read.error_frames, 1U);
  EXPECT_EQ(read.other, 1U);
  EXPECT_EQ(read.containers, 3U);
}

TEST(BlfReader, ObjectsOutsideContainersAreReadToo) {
  const Read read = read_all(file({object(1, classic(1, 0x123, {0x01}), 10)}));
  ASSERT_EQ(read.frames.size(), 1U);
  EXPECT_EQ(read.frames[0].frame, test::make_frame(0x123, {0x01}));
}

TEST(BlfReader, AContainerThatDoesNotInflateIsReportedAndTheOthersRead) {
  const Bytes first = object(1, classic(1, 0x100, {1}), 10);
  const Bytes second = object(1, classic(1, 0x200, {2}), 20);
  const Bytes third = object(1, classic(1, 0x300, {3}), 30);
  Bytes broken = container(second, true);
  broken[40] ^= 0xFF;  // inside the deflate stream
  broken[41] ^= 0xFF;
  const Bytes good = container(first, true);
  const Read read = read_all(file({good, broken, container(third, true)}));
  ASSERT_EQ(read.frames.size(), 2U);
  EXPECT_EQ(read.frames[0].frame.id, 0x100U);
  EXPECT_EQ(read.frames[1].frame.id, 0x300U);
  ASSERT_EQ(read.bad.size(), 1U);
  EXPECT_EQ(read.bad[0].rfind("t.blf: byte " + std::to_string(kFileHeader + good.size()) +
                                  ": container does not inflate to its 48 bytes (zlib: ",
                              0),
            0U)
      << read.bad[0];
}

TEST(BlfReader, BytesWhereAnObjectShouldStartAreSkippedToTheNextObject) {
  const Bytes first = container(object(1, classic(1, 0x100, {1}), 10), false);
  const Bytes junk{'j', 'u', 'n', 'k', '!', '!', '!', '!', '!', '!',
                   '!', '!', '!', '!', '!', '!', '!', '!', '!', '!'};
  const Bytes second = container(object(1, classic(1, 0x200, {2}), 20), false);
  const Read read = read_all(file({first, junk, second}));
  ASSERT_EQ(read.frames.size(), 2U);
  EXPECT_EQ(read.frames[1].frame.id, 0x200U);
  ASSERT_EQ(read.bad.size(), 1U);
  EXPECT_EQ(read.bad[0], "t.blf: byte " + std::to_string(kFileHeader + first.size()) +
                             ": expected an object (\"LOBJ\"); skipped 20 bytes to the next "
                             "object");
}

TEST(BlfReader, AFileCutShortKeepsWhatCameBefore) {
  const Bytes first = container(object(1, classic(1, 0x100, {1}), 10), true);
  Bytes second = container(object(1, classic(1, 0x200, {2}), 20), true);
  second.resize(second.size() - 10);
  const Read read = read_all(file({first, second}));
  ASSERT_EQ(read.frames.size(), 1U);
  ASSERT_EQ(read.bad.size(), 1U);
  EXPECT_NE(read.bad[0].find("t.blf: byte " + std::to_string(kFileHeader + first.size()) +
                             ": the file ends inside a "),
            std::string::npos)
      << read.bad[0];

  // An object cut at the end of the last container's data.
  Bytes stream = object(1, classic(1, 0x100, {1}), 10);
  stream.resize(stream.size() - 8);
  const Read cut = read_all(file({container(stream, false)}));
  EXPECT_TRUE(cut.frames.empty());
  ASSERT_EQ(cut.bad.size(), 1U);
  EXPECT_NE(cut.bad[0].find("the file ends inside an object"), std::string::npos) << cut.bad[0];
}

TEST(BlfReader, ObjectsThatCannotBeAreBadNotFatal) {
  // An object size smaller than its header, a frame too short for its type, an id of 12 bits.
  Bytes stream;
  Bytes tiny = object(1, classic(1, 0x100, {1}), 10);
  tiny[8] = 8;  // object size 8 < 32
  tiny[9] = tiny[10] = tiny[11] = 0;
  put_bytes(stream, tiny);
  put_bytes(stream, object(1, Bytes(4, 0), 20));
  put_bytes(stream, object(1, classic(1, 0x1000, {}), 30));
  put_bytes(stream, object(1, classic(1, 0x7FF, {9}), 40));
  const Read read = read_all(file({container(stream, true)}));
  ASSERT_EQ(read.frames.size(), 1U);
  EXPECT_EQ(read.frames[0].frame.id, 0x7FFU);
  ASSERT_EQ(read.bad.size(), 3U) << ::testing::PrintToString(read.bad);
  EXPECT_EQ(read.bad[0],
            "t.blf: byte 144: container data: object size 8 (header 32 bytes) is no object's; "
            "skipped 48 bytes to the next object");
  EXPECT_NE(read.bad[1].find("object type 1 has 4 bytes; expected at least 16"), std::string::npos);
  EXPECT_NE(read.bad[2].find("frame id 0x1000 does not fit 11 bits"), std::string::npos);
}

TEST(BlfReader, NotABlfFileIsRefused) {
  std::istringstream in("(1700000000.000000) can0 123#00\n");
  EXPECT_THROW(
      {
        try {
          BlfReader reader(in, "x.blf");
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "x.blf: not a BLF file (it does not start with \"LOGG\")");
          throw;
        }
      },
      std::runtime_error);
  std::istringstream short_header("LOGG\x10");
  EXPECT_THROW(BlfReader(short_header, "y.blf"), std::runtime_error);
}

TEST(BlfTrace, LoadTraceFindsBlfByItsSignatureAndStopsOrSkipsOnBadObjects) {
  const config::testing::TempDir dir;
  const Bytes good = container(every_kind(), true);
  Bytes broken = container(object(1, classic(1, 0x200, {2}), 20), true);
  broken[40] ^= 0xFF;
  const auto path = dir.write("trace.bin", file({good, broken}));  // no .blf extension
  EXPECT_EQ(detect_trace_format(path), TraceFormat::blf);
  try {
    (void)load_trace(path);
    ADD_FAILURE() << "a bad object must stop a strict load";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ": byte "), std::string::npos) << e.what();
  }
  const TraceLoad load = load_trace(path, {.lenient = true});
  EXPECT_EQ(load.format, TraceFormat::blf);
  EXPECT_EQ(load.trace.size(), 7U);
  EXPECT_EQ(load.bad_lines, 1U);
  EXPECT_EQ(load.error_frames, 1U);
  EXPECT_EQ(load.events, 1U);
  EXPECT_EQ(load.trace.interfaces(), (std::vector<std::string>{"can0", "can1"}));
  EXPECT_EQ(load.trace.record(0).time_ns, 0);  // since the first frame
  EXPECT_EQ(load.trace.record(2).time_ns, 2'999'000);
}

// --- python-can as the peer ----------------------------------------------------------------

class PythonCanBlf : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(PythonCanBlf, HoldsTheFramesAndTimesOfTheLogItWasWrittenFrom) {
  if (testing::run_command(std::string(kPython) + " -c 'import can'").status != 0) {
    GTEST_SKIP() << "python3-can not installed (tools/install-deps.sh)";
  }
  const auto [container_bytes, level] = GetParam();
  const config::testing::TempDir dir;
  const auto log = dir.write("can.log", testing::sample_log(90, false));
  const auto blf = dir.path() / "can.blf";
  const auto run = testing::run_command(
      std::string(kPython) + " " HIL_SOURCE_DIR "/tests/io/can/trace/python_can_write_blf.py " +
      log.string() + " " + blf.string() + " " + std::to_string(container_bytes) + " " +
      std::to_string(level));
  ASSERT_EQ(run.status, 0) << run.output;
  const TraceLoad from_log = load_trace(log);
  const TraceLoad from_blf = load_trace(blf);
  EXPECT_EQ(from_blf.format, TraceFormat::blf);
  ASSERT_EQ(from_blf.trace.size(), from_log.trace.size());
  EXPECT_EQ(from_blf.trace.interfaces(), from_log.trace.interfaces());
  EXPECT_EQ(from_blf.error_frames, 10U);
  for (std::size_t i = 0; i < from_log.trace.size(); ++i) {
    EXPECT_EQ(from_blf.trace.frame(i), from_log.trace.frame(i)) << i;
    // python-can's CanutilsLogReader drops an error frame's interface (BLFWriter: channel 1)
    if (!from_log.trace.frame(i).error()) {
      EXPECT_EQ(from_blf.trace.record(i).interface, from_log.trace.record(i).interface) << i;
    }
    // python-can stores (t − start)·1e9 computed in doubles of epoch seconds: ~0.2 µs off
    EXPECT_NEAR(static_cast<double>(from_blf.trace.record(i).time_ns),
                static_cast<double>(from_log.trace.record(i).time_ns), 1'000.0)
        << i;
  }
}

// One container, many small ones (objects split across them), stored instead of compressed.
INSTANTIATE_TEST_SUITE_P(Containers, PythonCanBlf,
                         ::testing::Values(std::pair{131072, -1}, std::pair{300, -1},
                                           std::pair{300, 0}));

}  // namespace
}  // namespace hil::io::can
