// ServerSpec validation: every rejected configuration names what is wrong.

#include "io/can/uds/uds_server_spec.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "tests/io/can/uds/uds_test_support.hpp"

namespace hil::io::can::uds::testing {
namespace {

std::string problem(const std::function<void(ServerSpec&)>& change) {
  ServerSpec spec = ecu_spec();
  change(spec);
  try {
    validate(spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(UdsServerSpec, TheTestEcuIsValid) {
  EXPECT_EQ(problem([](ServerSpec&) {}), "");
}

TEST(UdsServerSpec, RejectsWithAMessageNamingTheField) {
  EXPECT_EQ(problem([](ServerSpec& s) { s.vin = "ABC"; }),
            "vin 'ABC' has 3 characters, a VIN has 17 (ISO 3779)");
  EXPECT_EQ(problem([](ServerSpec& s) { s.p2_star_ms = 5005; }),
            "p2_star_ms 5005 is not a multiple of 10 ms (P2*server_max is sent in 10 ms units)");
  EXPECT_EQ(problem([](ServerSpec& s) { s.s3_ns = 0; }), "s3_ns must be positive, got 0");
  EXPECT_EQ(problem([](ServerSpec& s) { s.dids.push_back({.id = 0xF190, .length = 17}); }),
            "DID F190 is configured twice");
  EXPECT_EQ(problem([](ServerSpec& s) { s.dids[0].length = 0; }),
            "DID 0100 'wheel speed': length 0 (a DID that is not text needs a length)");
  EXPECT_EQ(problem([](ServerSpec& s) { s.dids[0].length = 5000; }),
            "DID 0100 'wheel speed': length 5000 exceeds 4092 (a response is at most 4095 bytes)");
  EXPECT_EQ(
      problem([](ServerSpec& s) { s.dids.push_back({.id = 1, .text = "x", .writable = true}); }),
      "DID 0001: a text DID is read-only");
  EXPECT_EQ(problem([](ServerSpec& s) { s.dids[1].write_sessions = 0; }),
            "DID 0200 'speed limit' write_sessions names no session or one that is not "
            "simulated (default, programming, extended)");
  EXPECT_EQ(problem([](ServerSpec& s) { s.dids[2].write_security_level = 3; }),
            "DID 0300 'calibration' write security level 3: only level 1 (or 0, none) exists");
  EXPECT_EQ(problem([](ServerSpec& s) { s.routines[1].duration_ns = -1; }),
            "routine FF00 'erase': negative duration_ns");
  EXPECT_EQ(problem([](ServerSpec& s) { s.routines.push_back({.id = 0x0201}); }),
            "routine 0201 is configured twice");
  EXPECT_EQ(problem([](ServerSpec& s) { s.security.seed = 0; }),
            "security.seed must not be 0 (the seed sequence would stay 0)");
  EXPECT_EQ(problem([](ServerSpec& s) { s.security.max_attempts = 0; }),
            "security.max_attempts must be at least 1");
  EXPECT_EQ(problem([](ServerSpec& s) { s.snapshot_did = 0x1234; }),
            "snapshot_did 1234 is not a DID");
  EXPECT_EQ(problem([](ServerSpec& s) { s.snapshot_did = 0xF190; }), "");
  EXPECT_EQ(problem([](ServerSpec& s) {
              s.dids.push_back({.id = 0x0400, .length = 40});
              s.snapshot_did = 0x0400;
            }),
            "snapshot_did 0400 is 40 bytes long, a snapshot holds at most 32");
}

TEST(UdsServerSpec, TheServerConstructorValidates) {
  FakeData data;
  DtcStore dtcs(example_dtcs());
  ServerSpec spec = ecu_spec();
  spec.vin = "short";
  EXPECT_THROW(UdsServer(spec, dtcs, data), std::invalid_argument);
}

TEST(UdsServerSpec, TextDidsFollowTheConfiguredOnes) {
  const std::vector<DidSpec> dids = all_dids(ecu_spec());
  ASSERT_EQ(dids.size(), 6U);
  EXPECT_EQ(dids[3].id, 0xF190);
  EXPECT_EQ(dids[3].text, kVin);
  EXPECT_EQ(dids[4].id, 0xF187);
  EXPECT_EQ(dids[5].id, 0xF18C);
}

}  // namespace
}  // namespace hil::io::can::uds::testing
