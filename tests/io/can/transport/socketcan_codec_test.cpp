// SocketCAN without a socket (io/can/transport/socketcan_codec.hpp, socketcan_control.hpp): frame
// conversions to and from struct can_frame / canfd_frame, kernel filters, error-frame decoding
// and the controller state machine, libsocketcan's state mapping.

#include "io/can/transport/socketcan_codec.hpp"

#include <gtest/gtest.h>
#include <linux/can/netlink.h>

#include <cstring>
#include <vector>

#include "io/can/transport/socketcan_control.hpp"
#include "tests/support/frame_helpers.hpp"

namespace hil::io::can::socketcan {
namespace {

using test::make_fd;
using test::make_frame;
using test::make_remote;

TEST(SocketCanCodec, ClassicFramesBecomeCanFrameLayout) {
  canfd_frame k{};
  ASSERT_EQ(to_kernel_frame(make_frame(0x123, {0xDE, 0xAD}), k), CAN_MTU);
  EXPECT_EQ(k.can_id, 0x123U);
  EXPECT_EQ(k.len, 2);
  EXPECT_EQ(k.data[0], 0xDE);
  EXPECT_EQ(k.data[1], 0xAD);
  EXPECT_EQ(k.flags, 0);

  ASSERT_EQ(to_kernel_frame(make_frame(0x18FF0001, {1}, kExtended), k), CAN_MTU);
  EXPECT_EQ(k.can_id, 0x18FF0001U | CAN_EFF_FLAG);

  ASSERT_EQ(to_kernel_frame(make_remote(0x7FF, 6), k), CAN_MTU);
  EXPECT_EQ(k.can_id, 0x7FFU | CAN_RTR_FLAG);
  EXPECT_EQ(k.len, 6);  // the requested DLC
  EXPECT_EQ(k.data[0], 0);

  // The layout promise the kernel makes: can_frame and canfd_frame share id, len and data.
  can_frame classic{};
  std::memcpy(&classic, &k, CAN_MTU);
  EXPECT_EQ(classic.can_id, k.can_id);
  EXPECT_EQ(classic.len, 6);
}

TEST(SocketCanCodec, FdFramesCarryBrsAndEsi) {
  canfd_frame k{};
  ASSERT_EQ(to_kernel_frame(make_fd(0x100, 48, kBrs | kEsi | kExtended, 7), k), CANFD_MTU);
  EXPECT_EQ(k.can_id, 0x100U | CAN_EFF_FLAG);
  EXPECT_EQ(k.len, 48);
  EXPECT_EQ(k.flags, CANFD_BRS | CANFD_ESI);
  EXPECT_EQ(k.data[47], 54);
  CanFrame invalid = make_fd(0x100, 13);
  EXPECT_EQ(to_kernel_frame(invalid, k), 0U);
}

TEST(SocketCanCodec, KernelFramesRoundTrip) {
  const std::vector<CanFrame> frames{make_frame(0x0, {}),
                                     make_frame(0x7FF, {1, 2, 3, 4, 5, 6, 7, 8}),
                                     make_frame(0x1FFFFFFF, {9}, kExtended),
                                     make_remote(0x12, 8),
                                     make_remote(0x12345, 0, true),
                                     make_fd(0x1, 64, kBrs),
                                     make_fd(0x2, 0, kExtended | kEsi),
                                     make_fd(0x3, 12)};
  for (const CanFrame& f : frames) {
    canfd_frame k{};
    const std::size_t size = to_kernel_frame(f, k);
    CanFrame back;
    ASSERT_TRUE(from_kernel_frame(k, size, back));
    EXPECT_EQ(back, f);
  }
}

TEST(SocketCanCodec, ImpossibleKernelFramesAreRejected) {
  canfd_frame k{};
  CanFrame out;
  k.can_id = 0x123;
  k.len = 2;
  EXPECT_FALSE(from_kernel_frame(k, 10, out));  // neither CAN_MTU nor CANFD_MTU
  k.len = 9;
  EXPECT_FALSE(from_kernel_frame(k, CAN_MTU, out));
  k.len = 13;
  EXPECT_FALSE(from_kernel_frame(k, CANFD_MTU, out));
  k.len = 2;
  k.can_id = 0x800;  // 11-bit frame with a 12-bit id
  EXPECT_FALSE(from_kernel_frame(k, CAN_MTU, out));
  k.can_id = 0x1 | CAN_RTR_FLAG;  // remote FD frame
  EXPECT_FALSE(from_kernel_frame(k, CANFD_MTU, out));
}

TEST(SocketCanCodec, ErrorFramesKeepTheirClassBits) {
  canfd_frame k{};
  k.can_id = CAN_ERR_FLAG | CAN_ERR_BUSOFF | CAN_ERR_CRTL;
  k.len = CAN_ERR_DLC;
  k.data[1] = CAN_ERR_CRTL_TX_PASSIVE;
  CanFrame f;
  ASSERT_TRUE(from_kernel_frame(k, CAN_MTU, f));
  EXPECT_TRUE(f.error());
  EXPECT_EQ(f.id, CAN_ERR_BUSOFF | CAN_ERR_CRTL);
  EXPECT_EQ(f.data[1], CAN_ERR_CRTL_TX_PASSIVE);
}

/// What the kernel does with a can_filter (net/can/af_can.c: (id & mask) == (filter & mask)).
bool passes(const can_filter& filter, canid_t can_id) {
  return (can_id & filter.can_mask) == (filter.can_id & filter.can_mask);
}

TEST(SocketCanCodec, FiltersMatchTheirFrameFormatOnly) {
  const can_filter standard = to_kernel_filter({.id = 0x123, .mask = 0x7FF, .extended = false});
  EXPECT_TRUE(passes(standard, 0x123));
  EXPECT_TRUE(passes(standard, 0x123 | CAN_RTR_FLAG));
  EXPECT_FALSE(passes(standard, 0x124));
  EXPECT_FALSE(passes(standard, 0x123 | CAN_EFF_FLAG));

  const can_filter extended = to_kernel_filter({.id = 0x18FF0001, .extended = true});
  EXPECT_TRUE(passes(extended, 0x18FF0001 | CAN_EFF_FLAG));
  EXPECT_FALSE(passes(extended, 0x18FF0002 | CAN_EFF_FLAG));
  EXPECT_FALSE(passes(extended, 0x001));

  const can_filter range = to_kernel_filter({.id = 0x100, .mask = 0x700, .extended = false});
  EXPECT_TRUE(passes(range, 0x1AB));
  EXPECT_FALSE(passes(range, 0x200));
}

CanFrame error_frame(std::uint32_t classes, std::uint8_t controller = 0, std::uint8_t tx = 0,
                     std::uint8_t rx = 0) {
  CanFrame f = make_frame(classes, {0, controller, 0, 0, 0, 0, tx, rx}, kError);
  return f;
}

TEST(SocketCanErrors, DecodesTheKernelsStateChangeFrames) {
  // As drivers report a TX counter of 130 (can_change_state() with CAN_ERR_CNT).
  const ErrorReport passive =
      decode_error_frame(error_frame(CAN_ERR_CRTL | CAN_ERR_CNT, CAN_ERR_CRTL_TX_PASSIVE, 130, 4));
  EXPECT_TRUE(passive.controller);
  EXPECT_TRUE(passive.passive);
  EXPECT_FALSE(passive.warning);
  EXPECT_TRUE(passive.has_counters);
  EXPECT_EQ(passive.tx_error_count, 130);
  EXPECT_EQ(passive.rx_error_count, 4);

  const ErrorReport off = decode_error_frame(error_frame(CAN_ERR_BUSOFF));
  EXPECT_TRUE(off.bus_off);
  EXPECT_FALSE(off.has_counters);
  EXPECT_TRUE(decode_error_frame(error_frame(CAN_ERR_RESTARTED)).restarted);
  EXPECT_TRUE(decode_error_frame(error_frame(CAN_ERR_CRTL, CAN_ERR_CRTL_RX_WARNING)).warning);
  EXPECT_TRUE(decode_error_frame(error_frame(CAN_ERR_CRTL, CAN_ERR_CRTL_ACTIVE)).back_to_active);
  const ErrorReport overflow =
      decode_error_frame(error_frame(CAN_ERR_CRTL, CAN_ERR_CRTL_RX_OVERFLOW));
  EXPECT_TRUE(overflow.rx_overflow);
  EXPECT_FALSE(overflow.passive);
  const ErrorReport misc =
      decode_error_frame(error_frame(CAN_ERR_TX_TIMEOUT | CAN_ERR_LOSTARB | CAN_ERR_PROT |
                                     CAN_ERR_TRX | CAN_ERR_ACK | CAN_ERR_BUSERROR));
  EXPECT_TRUE(misc.tx_timeout && misc.lost_arbitration && misc.protocol && misc.transceiver &&
              misc.no_ack && misc.bus_error);
  EXPECT_FALSE(decode_error_frame(make_frame(CAN_ERR_BUSOFF, {})).bus_off);  // not an error frame
}

TEST(SocketCanErrors, StateMachineFromActiveToBusOffAndBack) {
  BusState s = BusState::error_active;
  s = next_bus_state(s, decode_error_frame(error_frame(CAN_ERR_CRTL, CAN_ERR_CRTL_TX_WARNING)));
  EXPECT_EQ(s, BusState::error_warning);
  s = next_bus_state(s, decode_error_frame(error_frame(CAN_ERR_CRTL, CAN_ERR_CRTL_TX_PASSIVE)));
  EXPECT_EQ(s, BusState::error_passive);
  s = next_bus_state(s, decode_error_frame(error_frame(CAN_ERR_BUSOFF)));
  EXPECT_EQ(s, BusState::bus_off);
  s = next_bus_state(s, decode_error_frame(error_frame(CAN_ERR_CRTL, CAN_ERR_CRTL_RX_WARNING)));
  EXPECT_EQ(s, BusState::bus_off) << "only a restart leaves bus-off";
  s = next_bus_state(s, decode_error_frame(error_frame(CAN_ERR_RESTARTED)));
  EXPECT_EQ(s, BusState::error_active);
}

TEST(SocketCanErrors, CountersAloneDecideAtTheIsoThresholds) {
  auto with = [](std::uint8_t tx, std::uint8_t rx) {
    return next_bus_state(BusState::error_active,
                          decode_error_frame(error_frame(CAN_ERR_CNT, 0, tx, rx)));
  };
  EXPECT_EQ(with(95, 0), BusState::error_active);
  EXPECT_EQ(with(96, 0), BusState::error_warning);
  EXPECT_EQ(with(0, 127), BusState::error_warning);
  EXPECT_EQ(with(0, 128), BusState::error_passive);
  EXPECT_EQ(next_bus_state(BusState::error_passive,
                           decode_error_frame(error_frame(CAN_ERR_CNT, 0, 10, 0))),
            BusState::error_active);
  EXPECT_EQ(next_bus_state(BusState::error_warning, decode_error_frame(error_frame(CAN_ERR_ACK))),
            BusState::error_warning)
      << "a report without state leaves it alone";
}

TEST(SocketCanControl, MapsNetlinkStatesAndFailsClearlyForAMissingInterface) {
  EXPECT_EQ(bus_state_from_netlink(CAN_STATE_ERROR_ACTIVE), BusState::error_active);
  EXPECT_EQ(bus_state_from_netlink(CAN_STATE_ERROR_WARNING), BusState::error_warning);
  EXPECT_EQ(bus_state_from_netlink(CAN_STATE_ERROR_PASSIVE), BusState::error_passive);
  EXPECT_EQ(bus_state_from_netlink(CAN_STATE_BUS_OFF), BusState::bus_off);
  EXPECT_EQ(bus_state_from_netlink(CAN_STATE_STOPPED), BusState::unknown);

  const SocketCanControl control("hilnocan0");
  try {
    (void)control.state();
    FAIL() << "a missing interface has no state";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'hilnocan0'"), std::string::npos) << m;
    EXPECT_NE(m.find("read the controller state"), std::string::npos) << m;
  }
  EXPECT_THROW(control.restart(), std::runtime_error);
  EXPECT_THROW(control.set_restart_ms(100), std::runtime_error);
}

}  // namespace
}  // namespace hil::io::can::socketcan
