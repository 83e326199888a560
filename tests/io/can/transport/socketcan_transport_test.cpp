// SocketCAN at the socket (io/can/transport/socketcan_transport.hpp). On a kernel without AF_CAN
// (the development machines) opening must fail with one clear message; where AF_CAN exists the
// assertion is skipped, and a vcan0 round trip runs if vcan0 is up.

#include "io/can/transport/socketcan_transport.hpp"

#include <gtest/gtest.h>
#include <linux/can.h>
#include <net/if.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <vector>

#include "io/can/transport/transport_factory.hpp"
#include "tests/support/frame_helpers.hpp"

namespace hil::io::can {
namespace {

using namespace std::chrono_literals;
using test::make_fd;
using test::make_frame;
using test::make_remote;

/// True when this kernel can open a CAN_RAW socket.
bool kernel_has_af_can() {
  const int s = ::socket(PF_CAN, SOCK_RAW, CAN_RAW);
  if (s < 0) return false;
  ::close(s);
  return true;
}

TEST(SocketCanTransport, WithoutAfCanOpeningFailsWithOneClearMessage) {
  if (kernel_has_af_can())
    GTEST_SKIP() << "this kernel has AF_CAN: the no-AF_CAN message "
                    "cannot be observed here";
  try {
    (void)open_transport("socketcan:can0");
    FAIL() << "opening socketcan:can0 must fail without AF_CAN";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one message, one line: " << m;
    EXPECT_EQ(m.rfind("socketcan:can0: this kernel has no SocketCAN support", 0), 0U) << m;
    EXPECT_NE(m.find("Address family not supported"), std::string::npos) << m;
    EXPECT_NE(m.find("modprobe can can_raw"), std::string::npos) << m;
    EXPECT_NE(m.find("modprobe vcan; ip link add dev vcan0 type vcan; ip link set up vcan0"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("cannelloni://HOST:PORT"), std::string::npos) << m;
    EXPECT_NE(m.find("slcan:/dev/ttyACM0"), std::string::npos) << m;
    EXPECT_NE(m.find("virtual:NAME"), std::string::npos) << m;
  }
}

TEST(SocketCanTransport, UriMistakesAreReportedBeforeTheSocketIsTried) {
  EXPECT_THROW((void)open_transport("socketcan:can0?filter=0x123:zz"), std::invalid_argument);
  EXPECT_THROW((void)open_transport("socketcan:can0?filter=0x40000000"), std::invalid_argument);
  EXPECT_THROW((void)open_transport("socketcan:can0?fd=maybe"), std::invalid_argument);
  try {
    (void)open_transport("socketcan:can0?bitrat=500000");
    FAIL();
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("unknown query parameter 'bitrat'"), std::string::npos) << m;
    EXPECT_NE(m.find("fd, filter, bitrate, restart_ms"), std::string::npos) << m;
  }
}

TEST(SocketCanTransport, VcanRoundTripWhereTheKernelHasIt) {
  if (!kernel_has_af_can()) GTEST_SKIP() << "no AF_CAN on this kernel (see the test above)";
  if (::if_nametoindex("vcan0") == 0) GTEST_SKIP() << "no vcan0 (ip link add dev vcan0 type vcan)";
  const auto a = open_transport("socketcan:vcan0");
  const auto b = open_transport("socketcan:vcan0?filter=0x123,0x18FF0001,0x7FF");
  std::vector<CanFrame> frames{make_frame(0x123, {1, 2}), make_frame(0x124, {3}),
                               make_frame(0x18FF0001, {4}, kExtended), make_remote(0x7FF, 2)};
  const bool fd = dynamic_cast<const SocketCanTransport&>(*a).fd_enabled();
  if (fd) frames.push_back(make_fd(0x123, 64, kBrs));
  for (const CanFrame& f : frames) EXPECT_EQ(a->send(f, 0), SendStatus::ok);
  std::vector<CanFrame> expected = frames;
  expected.erase(expected.begin() + 1);  // 0x124 is filtered out by the kernel
  std::vector<CanFrame> got;
  for (const TimedFrame& t : test::receive_until(*b, expected.size(), 2s)) {
    got.push_back(t.frame);
    EXPECT_GT(t.timestamp_ns, 0);
  }
  EXPECT_EQ(got, expected);
  EXPECT_EQ(b->counters().snapshot().rx_frames, expected.size());
}

}  // namespace
}  // namespace hil::io::can
