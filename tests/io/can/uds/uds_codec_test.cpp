// The tester's side of io/can/uds/uds_codec.hpp: request builders against ISO 14229-1:2013's
// message examples, the NRC and status bit names, and describe()'s one-line texts.

#include "io/can/uds/uds_codec.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace hil::io::can::uds {
namespace {

using Bytes = std::vector<std::uint8_t>;

template <class Build>
Bytes built(Build&& build) {
  std::array<std::uint8_t, 64> buffer{};
  const std::size_t n = build(std::span<std::uint8_t>(buffer));
  return {buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n)};
}

TEST(UdsCodec, BuildersWriteTheStandardsExampleRequests) {
  // §9.2.5, §9.3.5 (11 01), §9.6.5, §11.2.5 (14 FF FF 33), §11.3.5 (19 01 08, 19 02 84,
  // 19 04 12 34 56 02, 19 06 12 34 56 FF), §10.2.5 (22 F1 90), §9.4.5 (27 01), §13.2.5
  // (31 01 02 01).
  EXPECT_EQ(built([](auto o) { return build_session_control(Session::extended, false, o); }),
            (Bytes{0x10, 0x03}));
  EXPECT_EQ(built([](auto o) { return build_session_control(Session::extended, true, o); }),
            (Bytes{0x10, 0x83}));
  EXPECT_EQ(built([](auto o) { return build_ecu_reset(ResetType::hard, false, o); }),
            (Bytes{0x11, 0x01}));
  EXPECT_EQ(built([](auto o) { return build_tester_present(true, o); }), (Bytes{0x3E, 0x80}));
  EXPECT_EQ(built([](auto o) { return build_clear_dtc(0xFFFF33, o); }),
            (Bytes{0x14, 0xFF, 0xFF, 0x33}));
  EXPECT_EQ(built([](auto o) { return build_read_dtc_by_status(0x01, 0x08, o); }),
            (Bytes{0x19, 0x01, 0x08}));
  EXPECT_EQ(built([](auto o) { return build_read_dtc_by_status(0x02, 0x84, o); }),
            (Bytes{0x19, 0x02, 0x84}));
  EXPECT_EQ(built([](auto o) { return build_read_dtc_record(0x04, 0x123456, 0x02, o); }),
            (Bytes{0x19, 0x04, 0x12, 0x34, 0x56, 0x02}));
  EXPECT_EQ(built([](auto o) { return build_read_dtc_record(0x06, 0x123456, 0xFF, o); }),
            (Bytes{0x19, 0x06, 0x12, 0x34, 0x56, 0xFF}));
  EXPECT_EQ(built([](auto o) { return build_read_supported_dtcs(o); }), (Bytes{0x19, 0x0A}));
  const std::array<std::uint16_t, 2> dids{0xF190, 0x0100};
  EXPECT_EQ(built([&](auto o) { return build_read_did(dids, o); }),
            (Bytes{0x22, 0xF1, 0x90, 0x01, 0x00}));
  const std::array<std::uint8_t, 2> value{0x12, 0x34};
  EXPECT_EQ(built([&](auto o) { return build_write_did(0x0200, value, o); }),
            (Bytes{0x2E, 0x02, 0x00, 0x12, 0x34}));
  EXPECT_EQ(built([](auto o) { return build_request_seed(1, o); }), (Bytes{0x27, 0x01}));
  EXPECT_EQ(built([](auto o) { return build_send_key(1, 0xC9A9, o); }),
            (Bytes{0x27, 0x02, 0x00, 0x00, 0xC9, 0xA9}));
  EXPECT_EQ(
      built([](auto o) { return build_routine_control(RoutineControlType::start, 0x0201, {}, o); }),
      (Bytes{0x31, 0x01, 0x02, 0x01}));
}

TEST(UdsCodec, BuilderReturnsZeroWhenTheBufferIsTooSmall) {
  std::array<std::uint8_t, 3> small{};
  EXPECT_EQ(build_read_dtc_record(0x04, 0x123456, 0x01, small), 0U);
  EXPECT_EQ(build_send_key(1, 0x12345678, small), 0U);
  EXPECT_EQ(build_tester_present(false, small), 2U);
}

TEST(UdsCodec, NamesEveryNegativeResponseCodeAsAnnexADoes) {
  const std::vector<std::pair<std::uint8_t, std::string_view>> expected{
      {0x10, "generalReject"},
      {0x11, "serviceNotSupported"},
      {0x12, "subFunctionNotSupported"},
      {0x13, "incorrectMessageLengthOrInvalidFormat"},
      {0x14, "responseTooLong"},
      {0x21, "busyRepeatRequest"},
      {0x22, "conditionsNotCorrect"},
      {0x24, "requestSequenceError"},
      {0x31, "requestOutOfRange"},
      {0x33, "securityAccessDenied"},
      {0x35, "invalidKey"},
      {0x36, "exceededNumberOfAttempts"},
      {0x37, "requiredTimeDelayNotExpired"},
      {0x78, "requestCorrectlyReceivedResponsePending"},
      {0x7E, "subFunctionNotSupportedInActiveSession"},
      {0x7F, "serviceNotSupportedInActiveSession"},
  };
  for (const auto& [code, name] : expected) EXPECT_EQ(nrc_name(code), name) << int{code};
  EXPECT_EQ(nrc_name(0x99), "ISOSAEReserved");
}

TEST(UdsCodec, NamesServicesByRequestAndResponseSid) {
  EXPECT_EQ(service_name(0x22), "ReadDataByIdentifier");
  EXPECT_EQ(service_name(0x62), "ReadDataByIdentifier");
  EXPECT_EQ(service_name(0x7E), "TesterPresent");
  EXPECT_EQ(service_name(0x7F), "");
  EXPECT_EQ(service_name(0x23), "");
}

TEST(UdsCodec, StatusTextListsTheSetBitsInOrder) {
  EXPECT_EQ(status_text(0x2F),
            "testFailed, testFailedThisOperationCycle, pendingDTC, confirmedDTC, "
            "testFailedSinceLastClear");
  EXPECT_EQ(status_text(dtc_status::kInitial),
            "testNotCompletedSinceLastClear, testNotCompletedThisOperationCycle");
  EXPECT_EQ(status_text(0x80), "warningIndicatorRequested");
  EXPECT_EQ(status_text(0), "");
}

TEST(UdsCodec, NegativeCodeOnlyOfNegativeResponses) {
  EXPECT_EQ(negative_code(Bytes{0x7F, 0x22, 0x31}), 0x31);
  EXPECT_EQ(negative_code(Bytes{0x62, 0xF1, 0x90}), 0);
  EXPECT_EQ(negative_code(Bytes{0x7F, 0x22}), 0);
}

TEST(UdsCodec, DescribesNegativeResponsesByTheirCodesName) {
  EXPECT_EQ(describe(Bytes{0x7F, 0x22, 0x31}), "7F 22 31 requestOutOfRange");
  EXPECT_EQ(describe(Bytes{0x7F, 0x31, 0x78}), "7F 31 78 requestCorrectlyReceivedResponsePending");
  EXPECT_EQ(describe(Bytes{0x7F, 0x22}), "malformed negative response: 7F 22");
}

TEST(UdsCodec, DescribesSessionResetAndTesterPresent) {
  EXPECT_EQ(describe(Bytes{0x50, 0x01, 0x00, 0x32, 0x01, 0xF4}),
            "DiagnosticSessionControl defaultSession: P2 50 ms, P2* 5000 ms");
  EXPECT_EQ(describe(Bytes{0x51, 0x01}), "ECUReset hardReset");
  EXPECT_EQ(describe(Bytes{0x51, 0x04, 0x0A}), "ECUReset resetType 0x04, powerDownTime 10 s");
  EXPECT_EQ(describe(Bytes{0x7E, 0x00}), "TesterPresent ok");
  EXPECT_EQ(describe(Bytes{0x54}), "ClearDiagnosticInformation cleared");
}

TEST(UdsCodec, DescribesDtcListsWithTheirStatusBits) {
  // §11.3.5's reportDTCByStatusMask example response.
  EXPECT_EQ(describe(Bytes{0x59, 0x02, 0x7F, 0x0A, 0x9B, 0x17, 0x24, 0x08, 0x05, 0x11, 0x2F}),
            "ReadDTCInformation reportDTCByStatusMask: availability 0x7F; 0A9B17 status 0x24 "
            "(pendingDTC, testFailedSinceLastClear); 080511 status 0x2F (testFailed, "
            "testFailedThisOperationCycle, pendingDTC, confirmedDTC, testFailedSinceLastClear)");
  EXPECT_EQ(describe(Bytes{0x59, 0x0A, 0x7F, 0xC1, 0x23, 0x00, 0x2F}),
            "ReadDTCInformation reportSupportedDTC: availability 0x7F; C12300 status 0x2F "
            "(testFailed, testFailedThisOperationCycle, pendingDTC, confirmedDTC, "
            "testFailedSinceLastClear)");
  EXPECT_EQ(describe(Bytes{0x59, 0x02, 0x7F}),
            "ReadDTCInformation reportDTCByStatusMask: availability 0x7F; no DTC");
  // §11.3.5's reportNumberOfDTCByStatusMask example response.
  EXPECT_EQ(describe(Bytes{0x59, 0x01, 0x2F, 0x01, 0x00, 0x01}),
            "ReadDTCInformation reportNumberOfDTCByStatusMask: availability 0x2F, format 0x01, "
            "1 DTC");
}

TEST(UdsCodec, DescribesSnapshotAndExtendedDataRecords) {
  // §11.3.5's snapshot example: DID 4711 with ECT, TP, RPM, MAP.
  EXPECT_EQ(describe(Bytes{0x59, 0x04, 0x12, 0x34, 0x56, 0x24, 0x02, 0x01, 0x47, 0x11, 0xA6, 0x66,
                           0x07, 0x50, 0x20}),
            "ReadDTCInformation reportDTCSnapshotRecordByDTCNumber: 123456 status 0x24 "
            "(pendingDTC, testFailedSinceLastClear); record 0x02: 1 DID, 4711 = A6 66 07 50 20 "
            "\".f.P \"");
  EXPECT_EQ(describe(Bytes{0x59, 0x06, 0x12, 0x34, 0x56, 0x24, 0x01, 0x05, 0x02, 0x00}),
            "ReadDTCInformation reportDTCExtDataRecordByDTCNumber: 123456 status 0x24 "
            "(pendingDTC, testFailedSinceLastClear); record 0x01 (occurrence counter) = 5; "
            "record 0x02 (aging counter) = 0");
  EXPECT_EQ(describe(Bytes{0x59, 0x04, 0x12, 0x34, 0x56, 0x50}),
            "ReadDTCInformation reportDTCSnapshotRecordByDTCNumber: 123456 status 0x50 "
            "(testNotCompletedSinceLastClear, testNotCompletedThisOperationCycle); no snapshot "
            "record");
}

TEST(UdsCodec, DescribesDidsAsHexAndAscii) {
  // §10.2.5's VIN example.
  EXPECT_EQ(describe(Bytes{0x62, 0xF1, 0x90, 0x57, 0x30, 0x4C, 0x30, 0x30, 0x30, 0x30,
                           0x34, 0x33, 0x4D, 0x42, 0x35, 0x34, 0x31, 0x33, 0x32, 0x36}),
            "ReadDataByIdentifier F190 = 57 30 4C 30 30 30 30 34 33 4D 42 35 34 31 33 32 36 "
            "\"W0L000043MB541326\"");
  EXPECT_EQ(describe(Bytes{0x6E, 0xF1, 0x90}), "WriteDataByIdentifier F190 written");
}

TEST(UdsCodec, DescribesSecurityAccessAndRoutines) {
  // §9.4.5's seed 0x3657; §13.2.5's stopRoutine response with status 30.
  EXPECT_EQ(describe(Bytes{0x67, 0x01, 0x36, 0x57}),
            "SecurityAccess requestSeed level 1: seed 36 57");
  EXPECT_EQ(describe(Bytes{0x67, 0x01, 0x00, 0x00}),
            "SecurityAccess requestSeed level 1: seed 00 00 (already unlocked)");
  EXPECT_EQ(describe(Bytes{0x67, 0x02}), "SecurityAccess sendKey level 1: unlocked");
  EXPECT_EQ(describe(Bytes{0x71, 0x02, 0x02, 0x01, 0x30}), "RoutineControl stopRoutine 0201: 30");
  EXPECT_EQ(describe(Bytes{0x71, 0x01, 0x02, 0x01}), "RoutineControl startRoutine 0201");
}

TEST(UdsCodec, DescribesMalformedAndUnknownResponsesAsHex) {
  EXPECT_EQ(describe(Bytes{}), "(no response)");
  EXPECT_EQ(describe(Bytes{0x59, 0x01, 0x2F}), "ReadDTCInformation (malformed): 59 01 2F");
  EXPECT_EQ(describe(Bytes{0x50, 0x03}), "DiagnosticSessionControl (malformed): 50 03");
  EXPECT_EQ(describe(Bytes{0x63, 0x01}), "63 01");
  EXPECT_EQ(describe(Bytes{0x22, 0xF1, 0x90}), "request: 22 F1 90");
}

}  // namespace
}  // namespace hil::io::can::uds
