// The receiver's check (io/can/e2e/check): a sender protects frames with chosen counters, the
// receiver checks them; each fault - repeated counter, counter jump, wrong CRC, wrong data
// id, missing frame, wrong length - gives the status the specification names, in every
// profile, and the counters wrap around.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/can/e2e/check.hpp"

namespace hil::io::can::e2e {
namespace {

using Bytes = std::vector<std::uint8_t>;

// A sender and a receiver of one message: the receiver's spec may differ (wrong data id).
struct Link {
  ProfileSpec tx;
  ProfileSpec rx;
  CheckState state;
  Bytes data{0x00, 0x00, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55};

  explicit Link(const ProfileSpec& spec) : tx(spec), rx(spec) {}

  [[nodiscard]] Bytes frame(std::uint32_t counter) const {
    Bytes payload = data;
    protect(tx, payload, counter);
    return payload;
  }
  Status send(std::uint32_t counter) { return check(rx, state, frame(counter)); }
  Status nothing() { return check(rx, state, {}); }
  // The specified sender's first frame and the one after it: afterwards the receiver is in
  // step (P01/P02 leave INITIAL, P22 its first step of two).
  std::uint32_t start() {
    std::uint32_t counter = initial_counter(tx);
    send(counter);
    counter = next_counter(tx, counter);
    EXPECT_EQ(send(counter), Status::ok);
    return counter;
  }
};

ProfileSpec spec_of(Profile profile) {
  ProfileSpec spec{.profile = profile, .data_id = 0x123};
  if (profile == Profile::p05) spec.offset_bits = 8;  // header in bytes 1-3, data around it
  if (profile == Profile::p11) spec.data_id_mode = DataIdMode::nibble;
  for (std::uint8_t i = 0; i < 16; ++i) spec.data_id_list[i] = static_cast<std::uint8_t>(0x40 + i);
  return spec;
}

class CheckEveryProfile : public ::testing::TestWithParam<Profile> {
 protected:
  Link link_{spec_of(GetParam())};
};

TEST_P(CheckEveryProfile, SpecIsValid) { EXPECT_EQ(validate(link_.tx, link_.data.size()), ""); }

TEST_P(CheckEveryProfile, InOrderFramesAreOkAcrossTwoWrapArounds) {
  std::uint32_t counter = link_.start();
  const std::uint32_t modulo = counter_modulo(link_.tx);
  for (std::uint32_t i = 0; i < 2 * modulo + 3; ++i) {
    counter = next_counter(link_.tx, counter);
    ASSERT_EQ(link_.send(counter), Status::ok) << "counter " << counter;
    ASSERT_EQ(link_.state.status, ProfileStatus::ok);
  }
}

TEST_P(CheckEveryProfile, RepeatedCounterIsRepeated) {
  const std::uint32_t counter = link_.start();
  EXPECT_EQ(link_.send(counter), Status::repeated);
  EXPECT_EQ(link_.state.status, ProfileStatus::repeated);
  EXPECT_EQ(link_.send(next_counter(link_.tx, counter)), Status::ok);
}

TEST_P(CheckEveryProfile, SkipWithinMaxDeltaIsOkWithSomeLost) {
  link_.rx.max_delta_counter = 3;
  const std::uint32_t counter = link_.start();
  const std::uint32_t skipped = next_counter(link_.tx, next_counter(link_.tx, counter));
  EXPECT_EQ(link_.send(skipped), Status::ok);
  EXPECT_EQ(link_.state.status, ProfileStatus::ok_some_lost);
  EXPECT_EQ(link_.state.lost_data, 1);
}

TEST_P(CheckEveryProfile, SkipBeyondMaxDeltaIsWrongSequence) {
  std::uint32_t counter = link_.start();
  for (int i = 0; i < 3; ++i) counter = next_counter(link_.tx, counter);
  EXPECT_EQ(link_.send(counter), Status::wrong_sequence);
  EXPECT_EQ(link_.state.status, ProfileStatus::wrong_sequence);
}

TEST_P(CheckEveryProfile, WrongCrcIsError) {
  const std::uint32_t counter = next_counter(link_.tx, link_.start());
  Bytes frame = link_.frame(counter);
  frame[7] ^= 0x01;  // one application bit flipped on the way
  EXPECT_EQ(check(link_.rx, link_.state, frame), Status::error);
  const bool p01_p02 = GetParam() == Profile::p01 || GetParam() == Profile::p02;
  EXPECT_EQ(link_.state.status, p01_p02 ? ProfileStatus::wrong_crc : ProfileStatus::error);
  EXPECT_EQ(link_.send(counter), Status::ok);  // the next good frame continues the sequence
}

TEST_P(CheckEveryProfile, WrongDataIdIsError) {
  const std::uint32_t first = initial_counter(link_.tx);
  const std::uint32_t second = next_counter(link_.tx, first);
  link_.rx.data_id = 0x124;              // P01, P05, P11: the receiver expects another id
  link_.rx.data_id_list[second] = 0x7F;  // P02, P22: and another id for counter `second`
  link_.send(first);
  EXPECT_EQ(link_.send(second), Status::error);
  const bool p01_p02 = GetParam() == Profile::p01 || GetParam() == Profile::p02;
  EXPECT_EQ(link_.state.status, p01_p02 ? ProfileStatus::wrong_crc : ProfileStatus::error);
}

TEST_P(CheckEveryProfile, NoFrameThisCycleIsNoData) {
  link_.start();
  EXPECT_EQ(link_.nothing(), Status::no_data);
  EXPECT_EQ(link_.state.status, ProfileStatus::no_new_data);
}

TEST_P(CheckEveryProfile, WrongLengthIsAnInputErrorThatLeavesTheStateAlone) {
  const std::uint32_t counter = link_.start();
  const CheckState before = link_.state;
  const Bytes too_short(5);
  EXPECT_EQ(check(link_.rx, link_.state, too_short), Status::error);
  EXPECT_EQ(link_.state.status, ProfileStatus::input_error);
  EXPECT_EQ(link_.state.last_counter, before.last_counter);
  EXPECT_EQ(link_.send(next_counter(link_.tx, counter)), Status::ok);
}

TEST_P(CheckEveryProfile, ResetBringsBackTheFirstFrameBehaviour) {
  Link fresh{link_.tx};
  link_.start();
  link_.state = CheckState{};
  const std::uint32_t first = initial_counter(link_.tx);
  EXPECT_EQ(link_.send(first), fresh.send(first));
  EXPECT_EQ(link_.state.status, fresh.state.status);
}

std::string profile_name(const ::testing::TestParamInfo<Profile>& info) {
  return std::string(e2e::profile_name(info.param));
}

INSTANTIATE_TEST_SUITE_P(Profiles, CheckEveryProfile,
                         ::testing::Values(Profile::p01, Profile::p02, Profile::p05, Profile::p11,
                                           Profile::p22),
                         profile_name);

// --- the first frame: E2E_PxxCheckInit's state ------------------------------------------

TEST(CheckFirstFrame, P01AndP02ReportInitialWhichMapsToWrongSequence) {
  for (const Profile profile : {Profile::p01, Profile::p02}) {
    Link link{spec_of(profile)};
    EXPECT_EQ(link.send(7), Status::wrong_sequence);  // any counter: nothing to compare with
    EXPECT_EQ(link.state.status, ProfileStatus::initial);
    EXPECT_EQ(link.send(8), Status::ok);
  }
}

TEST(CheckFirstFrame, LegacyMappingTakesInitialAsOkAndSyncAsWrongSequence) {
  ProfileSpec spec = spec_of(Profile::p01);
  spec.legacy_status_mapping = true;
  EXPECT_EQ(map_status(spec, ProfileStatus::initial), Status::ok);
  EXPECT_EQ(map_status(spec, ProfileStatus::sync), Status::wrong_sequence);
  spec.legacy_status_mapping = false;
  EXPECT_EQ(map_status(spec, ProfileStatus::initial), Status::wrong_sequence);
  EXPECT_EQ(map_status(spec, ProfileStatus::sync), Status::ok);
}

TEST(CheckFirstFrame, P05AndP11ExpectCounterZero) {
  for (const Profile profile : {Profile::p05, Profile::p11}) {
    Link link{spec_of(profile)};
    EXPECT_EQ(link.send(0), Status::ok);
    Link late{spec_of(profile)};
    EXPECT_EQ(late.send(5), Status::wrong_sequence);  // a receiver started after its sender
    EXPECT_EQ(late.send(6), Status::ok);              // then follows it
  }
}

TEST(CheckFirstFrame, P22FirstCounterOneIsAStepOfTwoFromCheckInit) {
  Link link{spec_of(Profile::p22)};
  EXPECT_EQ(link.send(1), Status::wrong_sequence);  // Counter 0x0F after E2E_P22CheckInit
  Link tolerant{spec_of(Profile::p22)};
  tolerant.rx.max_delta_counter = 2;
  EXPECT_EQ(tolerant.send(1), Status::ok);
  EXPECT_EQ(tolerant.state.status, ProfileStatus::ok_some_lost);
}

// --- profile-specific rules ------------------------------------------------------------

TEST(CheckP01, ForbiddenCounter15IsAnInputError) {
  for (const Profile profile : {Profile::p01, Profile::p11}) {
    Link link{spec_of(profile)};
    link.start();
    EXPECT_EQ(link.send(15), Status::error);
    EXPECT_EQ(link.state.status, ProfileStatus::input_error);
  }
}

TEST(CheckP01, WrongDataIdNibbleIsAnErrorEvenWithAGoodCrc) {
  for (const Profile profile : {Profile::p01, Profile::p11}) {
    ProfileSpec spec = spec_of(profile);
    spec.data_id_mode = DataIdMode::nibble;
    Link link{spec};
    link.start();
    link.tx.data_id = 0x223;  // same low byte: only the explicit nibble differs
    EXPECT_EQ(link.send(2), Status::error);
    EXPECT_EQ(link.state.status,
              profile == Profile::p01 ? ProfileStatus::wrong_crc : ProfileStatus::error);
  }
}

TEST(CheckP01, CyclesWithoutDataWidenTheAcceptedStep) {
  Link link{spec_of(Profile::p01)};  // max_delta_counter 1
  link.start();                      // counters 0, 1
  EXPECT_EQ(link.nothing(), Status::no_data);
  EXPECT_EQ(link.nothing(), Status::no_data);
  EXPECT_EQ(link.send(4), Status::ok);  // 2 and 3 missed while nothing arrived
  EXPECT_EQ(link.state.status, ProfileStatus::ok_some_lost);
  EXPECT_EQ(link.state.lost_data, 2);
}

TEST(CheckP01, AJumpIsLockedInWithASyncPhase) {
  ProfileSpec spec = spec_of(Profile::p01);
  spec.sync_counter_init = 2;
  Link link{spec};
  link.start();                                     // 0, 1
  EXPECT_EQ(link.send(6), Status::wrong_sequence);  // jump: lock in on 6
  EXPECT_EQ(link.send(7), Status::ok);              // SYNC (maps to OK), 1 to go
  EXPECT_EQ(link.state.status, ProfileStatus::sync);
  EXPECT_EQ(link.send(8), Status::ok);
  EXPECT_EQ(link.state.status, ProfileStatus::sync);
  EXPECT_EQ(link.send(9), Status::ok);
  EXPECT_EQ(link.state.status, ProfileStatus::ok);
}

TEST(CheckP01, WithoutASyncPhaseAJumpIsComparedWithTheLastGoodCounter) {
  Link link{spec_of(Profile::p01)};  // sync_counter_init 0
  link.start();                      // last good counter 1
  EXPECT_EQ(link.send(6), Status::wrong_sequence);
  EXPECT_EQ(link.state.last_counter, 1);  // not locked in
  EXPECT_EQ(link.send(2), Status::ok);    // the old sequence is still accepted
}

TEST(CheckP01, TooManyCyclesWithoutNewDataReportSync) {
  ProfileSpec spec = spec_of(Profile::p01);
  spec.max_no_new_or_repeated_data = 1;
  Link link{spec};
  link.start();
  link.nothing();
  link.nothing();  // 2 > 1
  EXPECT_EQ(link.send(2), Status::ok);
  EXPECT_EQ(link.state.status, ProfileStatus::sync);
  EXPECT_EQ(link.send(3), Status::ok);
  EXPECT_EQ(link.state.status, ProfileStatus::ok);
}

TEST(CheckP05, CounterWrapsFrom255To0) {
  Link link{spec_of(Profile::p05)};
  EXPECT_EQ(link.send(0), Status::ok);
  link.state.last_counter = 254;
  EXPECT_EQ(link.send(255), Status::ok);
  EXPECT_EQ(link.send(0), Status::ok);
  EXPECT_EQ(link.send(2), Status::wrong_sequence);
  EXPECT_EQ(link.send(2), Status::repeated);  // the jump became the reference
}

}  // namespace
}  // namespace hil::io::can::e2e
