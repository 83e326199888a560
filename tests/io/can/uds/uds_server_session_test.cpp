// UdsServer: DiagnosticSessionControl, S3 timeout, TesterPresent, ECUReset, and the general
// response rules (unknown services, sessions, the suppress bit, functional addressing,
// responses too long). Expected bytes from ISO 14229-1:2013's examples where it has them.

#include <gtest/gtest.h>

#include "tests/io/can/uds/uds_test_support.hpp"

namespace hil::io::can::uds::testing {
namespace {

TEST_F(EcuTest, SessionControlReportsP2AndP2StarAsTheExamples) {
  // 50 type P2server_max 0x0032 = 50 ms, P2*server_max 0x01F4 × 10 ms = 5000 ms.
  EXPECT_EQ(ask(server, {0x10, 0x01}), (Bytes{0x50, 0x01, 0x00, 0x32, 0x01, 0xF4}));
  EXPECT_EQ(ask(server, {0x10, 0x03}), (Bytes{0x50, 0x03, 0x00, 0x32, 0x01, 0xF4}));
  EXPECT_EQ(server.session(), Session::extended);
  EXPECT_EQ(ask(server, {0x10, 0x02}), (Bytes{0x50, 0x02, 0x00, 0x32, 0x01, 0xF4}));
  EXPECT_EQ(server.session(), Session::programming);
}

TEST_F(EcuTest, SessionControlNegativeResponses) {
  EXPECT_EQ(ask(server, {0x10, 0x04}), (Bytes{0x7F, 0x10, 0x12}));  // safety system: not here
  EXPECT_EQ(ask(server, {0x10}), (Bytes{0x7F, 0x10, 0x13}));
  EXPECT_EQ(ask(server, {0x10, 0x03, 0x00}), (Bytes{0x7F, 0x10, 0x13}));
  // programming only from extended: from default it is not supported in this session
  EXPECT_EQ(ask(server, {0x10, 0x02}), (Bytes{0x7F, 0x10, 0x7E}));
  EXPECT_EQ(server.session(), Session::default_session);
}

TEST_F(EcuTest, ProgrammingFromDefaultWhenTheSpecAllowsIt) {
  ServerSpec spec = ecu_spec();
  spec.programming_requires_extended = false;
  UdsServer open(spec, dtcs, data);
  EXPECT_EQ(ask(open, {0x10, 0x02}).at(0), 0x50);
  EXPECT_EQ(open.session(), Session::programming);
}

TEST_F(EcuTest, SuppressBitSuppressesOnlyThePositiveResponse) {
  EXPECT_EQ(ask(server, {0x10, 0x83}), Bytes{});
  EXPECT_EQ(server.session(), Session::extended);
  EXPECT_EQ(ask(server, {0x10, 0x84}), (Bytes{0x7F, 0x10, 0x12}));  // negatives still sent
  EXPECT_EQ(ask(server, {0x3E, 0x80}), Bytes{});
  EXPECT_EQ(ask(server, {0x11, 0x81}), Bytes{});
  EXPECT_EQ(server.reset_requested(), ResetType::hard);
}

TEST_F(EcuTest, S3TimeoutReturnsToTheDefaultSession) {
  (void)unlock(server, 0);
  ASSERT_TRUE(server.security_unlocked());
  EXPECT_EQ(tick(server, 4'999 * kMs), Bytes{});
  EXPECT_EQ(server.session(), Session::extended);
  EXPECT_EQ(tick(server, 5 * kSecond), Bytes{});  // no response on a timeout
  EXPECT_EQ(server.session(), Session::default_session);
  EXPECT_FALSE(server.security_unlocked());
}

TEST_F(EcuTest, AnyRequestKeepsTheSessionAlive) {
  (void)ask(server, {0x10, 0x03}, 0);
  EXPECT_EQ(ask(server, {0x3E, 0x80}, 4 * kSecond), Bytes{});
  (void)tick(server, 8 * kSecond);
  EXPECT_EQ(server.session(), Session::extended);
  (void)ask(server, {0x22, 0xF1, 0x90}, 8 * kSecond);  // any request, functional or not
  (void)tick(server, 12 * kSecond);
  EXPECT_EQ(server.session(), Session::extended);
  (void)tick(server, 13 * kSecond);
  EXPECT_EQ(server.session(), Session::default_session);
}

TEST_F(EcuTest, TimeGoingBackDoesNotExpireTheSession) {
  (void)ask(server, {0x10, 0x03}, 10 * kSecond);
  (void)tick(server, 0);
  EXPECT_EQ(server.session(), Session::extended);
}

TEST_F(EcuTest, TesterPresentAnswersOnlyZeroSubFunction) {
  EXPECT_EQ(ask(server, {0x3E, 0x00}), (Bytes{0x7E, 0x00}));
  EXPECT_EQ(ask(server, {0x3E, 0x01}), (Bytes{0x7F, 0x3E, 0x12}));
  EXPECT_EQ(ask(server, {0x3E, 0x00, 0x00}), (Bytes{0x7F, 0x3E, 0x13}));
  EXPECT_EQ(ask(server, {0x3E}), (Bytes{0x7F, 0x3E, 0x13}));
}

TEST_F(EcuTest, EcuResetAnswersThenTheIntegratorResets) {
  (void)unlock(server);
  EXPECT_EQ(ask(server, {0x11, 0x01}), (Bytes{0x51, 0x01}));  // §9.3.5's example
  EXPECT_EQ(server.reset_requested(), ResetType::hard);
  EXPECT_EQ(server.session(), Session::extended);  // until the reset is done
  server.complete_reset();
  EXPECT_EQ(server.reset_requested(), ResetType::none);
  EXPECT_EQ(server.session(), Session::default_session);
  EXPECT_FALSE(server.security_unlocked());
  EXPECT_EQ(ask(server, {0x11, 0x03}), (Bytes{0x51, 0x03}));
  EXPECT_EQ(server.reset_requested(), ResetType::soft);
}

TEST_F(EcuTest, EcuResetNegativeResponses) {
  EXPECT_EQ(ask(server, {0x11, 0x02}), (Bytes{0x7F, 0x11, 0x12}));  // keyOffOnReset
  EXPECT_EQ(ask(server, {0x11, 0x01, 0x00}), (Bytes{0x7F, 0x11, 0x13}));
  EXPECT_EQ(server.reset_requested(), ResetType::none);
}

TEST_F(EcuTest, UnknownServicesAndServicesOutsideTheirSession) {
  EXPECT_EQ(ask(server, {0x23, 0x00}), (Bytes{0x7F, 0x23, 0x11}));
  EXPECT_EQ(ask(server, {0x62, 0xF1, 0x90}), (Bytes{0x7F, 0x62, 0x11}));  // a response SID
  EXPECT_EQ(ask(server, {0x2E, 0x02, 0x00, 0x00, 0x50}), (Bytes{0x7F, 0x2E, 0x7F}));
  EXPECT_EQ(ask(server, {0x27, 0x01}), (Bytes{0x7F, 0x27, 0x7F}));
  EXPECT_EQ(ask(server, {0x31, 0x01, 0x02, 0x01}), (Bytes{0x7F, 0x31, 0x7F}));
  EXPECT_EQ(ask(server, {}), Bytes{});
}

TEST_F(EcuTest, FunctionalRequestsGetNoNotSupportedOrOutOfRangeAnswers) {
  // §7.5: 0x11, 0x12, 0x31, 0x7E and 0x7F are not sent to functional requests
  constexpr bool kFunctional = true;
  EXPECT_EQ(ask(server, {0x23, 0x00}, 0, kFunctional), Bytes{});              // 0x11
  EXPECT_EQ(ask(server, {0x10, 0x05}, 0, kFunctional), Bytes{});              // 0x12
  EXPECT_EQ(ask(server, {0x10, 0x02}, 0, kFunctional), Bytes{});              // 0x7E
  EXPECT_EQ(ask(server, {0x27, 0x01}, 0, kFunctional), Bytes{});              // 0x7F
  EXPECT_EQ(ask(server, {0x22, 0x12, 0x34}, 0, kFunctional), Bytes{});        // 0x31
  EXPECT_EQ(ask(server, {0x14, 0xFF, 0xFF, 0x33}, 0, kFunctional), Bytes{});  // 0x31
  EXPECT_EQ(ask(server, {0x10, 0x03, 0x00}, 0, kFunctional), (Bytes{0x7F, 0x10, 0x13}));
  EXPECT_EQ(ask(server, {0x3E, 0x00}, 0, kFunctional), (Bytes{0x7E, 0x00}));
  EXPECT_EQ(ask(server, {0x3E, 0x80}, 0, kFunctional), Bytes{});
}

TEST_F(EcuTest, APositiveResponseTooLongForTheBufferIsResponseTooLong) {
  Bytes response(10);
  const Bytes vin{0x22, 0xF1, 0x90};
  response.resize(server.handle(vin, false, 0, response));
  EXPECT_EQ(response, (Bytes{0x7F, 0x22, 0x14}));
  Bytes tiny(2);
  EXPECT_EQ(server.handle(vin, false, 0, tiny), 0U);  // not even a negative response fits
}

}  // namespace
}  // namespace hil::io::can::uds::testing
