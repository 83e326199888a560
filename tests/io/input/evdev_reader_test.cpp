// A Linux joystick as the driver's controls (io/input/evdev_stream.hpp, evdev_reader.hpp):
// struct input_event records split across reads put together, garbage and short reads counted;
// through a FIFO as a bench without the device would have it: the wheel turned and the pedal
// pressed become shaped channel writes, a writer that goes away rests the axes, a new writer is
// read again, and nothing of the garbage crashes or moves anything.

#include <fcntl.h>
#include <linux/input.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

#include "io/input/evdev_reader.hpp"
#include "io/input/evdev_stream.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::input {
namespace {

std::vector<std::uint8_t> record(std::uint16_t type, std::uint16_t code, std::int32_t value) {
  input_event e{};
  e.type = type;
  e.code = code;
  e.value = value;
  std::vector<std::uint8_t> out(sizeof e);
  std::memcpy(out.data(), &e, sizeof e);
  return out;
}

std::vector<std::uint8_t> operator+(std::vector<std::uint8_t> a,
                                    const std::vector<std::uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(EvdevStream, PutsRecordsSplitAcrossReadsTogetherAndCountsWhatIsNotOne) {
  EvdevStream stream;
  std::vector<EvdevEvent> seen;
  const auto on = [&](const EvdevEvent& e) { seen.push_back(e); };
  const std::vector<std::uint8_t> bytes =
      record(EV_ABS, ABS_X, 1234) + record(0x15, 7, 1) + record(EV_KEY, BTN_TRIGGER, 1) +
      record(EV_KEY, BTN_TRIGGER, 9) +  // not 0..2
      record(EV_SYN, SYN_REPORT, 0) + record(EV_SYN, SYN_DROPPED, 0);
  for (const std::uint8_t b : bytes) stream.feed(std::span(&b, 1), on);  // a byte per read
  ASSERT_EQ(seen.size(), 4U);
  EXPECT_EQ(seen[0].kind, EvdevEvent::Kind::axis);
  EXPECT_EQ(seen[0].code, ABS_X);
  EXPECT_EQ(seen[0].value, 1234);
  EXPECT_EQ(seen[1].kind, EvdevEvent::Kind::button);
  EXPECT_EQ(seen[2].kind, EvdevEvent::Kind::sync);
  EXPECT_EQ(seen[3].kind, EvdevEvent::Kind::dropped);
  EXPECT_EQ(stream.counters().garbage, 2U);
  EXPECT_EQ(stream.counters().dropped, 1U);
  EXPECT_EQ(stream.counters().events, 4U);
  const std::vector<std::uint8_t> half = record(EV_ABS, ABS_Z, 9);
  stream.feed(std::span(half.data(), 10), on);  // the writer stops mid-record
  stream.end();
  EXPECT_EQ(stream.counters().short_reads, 1U);
  stream.feed(record(EV_ABS, ABS_Z, 9), on);  // the next stream starts clean
  EXPECT_EQ(seen.back().value, 9);
}

DriverSpec wheel() {
  DriverSpec s;
  s.axes.push_back({.device = Device::evdev,
                    .index = ABS_X,
                    .channel = "driver.steer",
                    .channel_min = -1.0,
                    .channel_max = 1.0,
                    .shape = {.raw_min = 0.0, .raw_max = 1000.0, .invert = true}});
  s.axes.push_back({.device = Device::evdev,
                    .index = ABS_Z,
                    .channel = "driver.throttle",
                    .channel_min = 0.0,
                    .channel_max = 1.0,
                    .shape = {.raw_min = 0.0, .raw_max = 255.0, .pedal = true, .invert = true}});
  s.buttons.push_back(
      {.device = Device::evdev, .index = BTN_TRIGGER, .channel = "driver.mode", .value = 1});
  return s;
}

/// Pumps `in` until `what` holds of its status (at most 5 s).
template <class What>
bool pump_until(DriverInput& in, std::atomic<double>& t, What what) {
  const auto sink = [](const std::string&, std::optional<double>) { return true; };
  for (int i = 0; i < 500; ++i) {
    t = t + 0.02;
    in.pump(t, sink);
    if (what(in.status())) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

double value_of(const DriverStatus& s, const std::string& channel) {
  for (const auto& [c, v] : s.values) {
    if (c == channel) return v;
  }
  return -99.0;
}

TEST(EvdevReader, AWheelOnAFifoDrivesTheChannelsAndRestsWhenItsWriterGoes) {
  const hil::config::testing::TempDir dir;
  const std::filesystem::path fifo = dir.path() / "wheel";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  DriverInput in(wheel());
  std::atomic<double> t{0.0};
  EvdevReader reader(fifo, in, [&t] { return t.load(); });
  const int w = ::open(fifo.c_str(), O_WRONLY);  // waits for the reader
  ASSERT_GE(w, 0);
  const auto send = [&](const std::vector<std::uint8_t>& bytes) {
    ASSERT_EQ(::write(w, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  };
  // garbage first: counted, nothing moves
  send(record(0x1f, 3, 3) + record(EV_KEY, BTN_TRIGGER, -4));
  // the wheel's first button takes the wheel; a quarter turn left; the pedal (rests at 255) 40 %
  send(record(EV_KEY, BTN_TRIGGER, 1) + record(EV_SYN, SYN_REPORT, 0) + record(EV_ABS, ABS_X, 250) +
       record(EV_ABS, ABS_Z, 153) + record(EV_SYN, SYN_REPORT, 0));
  ASSERT_TRUE(pump_until(in, t, [](const DriverStatus& s) {
    return s.human && value_of(s, "driver.steer") == 0.5 && value_of(s, "driver.throttle") == 0.4;
  }));
  // a record split over two writes
  const std::vector<std::uint8_t> turn = record(EV_ABS, ABS_X, 1000);  // full right
  send({turn.begin(), turn.begin() + 5});
  send({turn.begin() + 5, turn.end()});
  ASSERT_TRUE(
      pump_until(in, t, [](const DriverStatus& s) { return value_of(s, "driver.steer") == -1.0; }));
  // the writer closes mid-record: a short read; the axes rest
  const std::vector<std::uint8_t> cut = record(EV_ABS, ABS_Z, 0);
  send({cut.begin(), cut.begin() + 7});
  ::close(w);
  ASSERT_TRUE(pump_until(in, t, [](const DriverStatus& s) {
    return value_of(s, "driver.steer") == 0.0 && value_of(s, "driver.throttle") == 0.0;
  }));
  // a new writer is read again
  const int w2 = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(w2, 0);
  const std::vector<std::uint8_t> again = record(EV_ABS, ABS_Z, 0);  // the pedal floored
  ASSERT_EQ(::write(w2, again.data(), again.size()), static_cast<ssize_t>(again.size()));
  ASSERT_TRUE(pump_until(
      in, t, [](const DriverStatus& s) { return value_of(s, "driver.throttle") == 1.0; }));
  ::close(w2);
  const EvdevReaderCounters c = reader.counters();
  EXPECT_EQ(c.stream.garbage, 2U);
  EXPECT_GE(c.stream.short_reads, 1U);
  EXPECT_EQ(c.button_events, 1U);
  EXPECT_EQ(c.axis_events, 4U);
  EXPECT_GE(c.opens, 2U);
}

TEST(EvdevReader, AFileIsReadOnceAndAMissingPathIsRetriedWithTheReason) {
  const hil::config::testing::TempDir dir;
  DriverInput in(wheel());
  std::atomic<double> t{0.0};
  {
    const EvdevReader missing(dir.path() / "no-such-device", in, [&t] { return t.load(); });
    for (int i = 0; i < 100 && missing.counters().error.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_NE(missing.counters().error.find("No such file"), std::string::npos);
  }
  const std::filesystem::path file = dir.path() / "recorded";
  {
    const std::vector<std::uint8_t> bytes =
        record(EV_KEY, BTN_TRIGGER, 1) + record(EV_ABS, ABS_X, 0);
    (void)dir.write("recorded",
                    std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }
  const EvdevReader reader(file, in, [&t] { return t.load(); });
  for (int i = 0; i < 200 && reader.counters().axis_events == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(reader.counters().axis_events, 1U);  // once, not again and again
  EXPECT_EQ(reader.counters().opens, 1U);
  EXPECT_TRUE(in.status().human);
}

}  // namespace
}  // namespace hil::io::input
