// The E2E state machine (io/can/e2e/state_machine): every transition of E2E_SMCheck, the
// window's counting and clearing, and the configuration rules.

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "io/can/e2e/state_machine.hpp"

namespace hil::io::can::e2e {
namespace {

// Window 3 in every state; INIT → VALID after 2 OKs; VALID needs 1 OK and tolerates 1 error;
// INVALID → VALID after 2 OKs and no error.
StateMachineSpec three_window() {
  return StateMachineSpec{.window_size_valid = 3,
                          .window_size_init = 3,
                          .window_size_invalid = 3,
                          .min_ok_state_init = 2,
                          .max_error_state_init = 1,
                          .min_ok_state_valid = 1,
                          .max_error_state_valid = 1,
                          .min_ok_state_invalid = 2,
                          .max_error_state_invalid = 0};
}

class StateMachine : public ::testing::Test {
 protected:
  SmState feed(std::initializer_list<Status> statuses) {
    for (const Status s : statuses) sm_check(spec_, state_, s);
    return state_.state;
  }
  // NODATA → INIT → VALID with the least input.
  void reach_valid() { ASSERT_EQ(feed({Status::ok, Status::ok, Status::ok}), SmState::valid); }
  // ...and from there to INVALID.
  void reach_invalid() {
    reach_valid();
    ASSERT_EQ(feed({Status::error, Status::error}), SmState::invalid);
  }

  StateMachineSpec spec_ = three_window();
  SmCheckState state_;
};

TEST_F(StateMachine, StartsInNoData) { EXPECT_EQ(state_.state, SmState::no_data); }

TEST_F(StateMachine, NoDataStaysOnErrorsAndMissingData) {
  EXPECT_EQ(feed({Status::error, Status::no_data, Status::error, Status::no_data}),
            SmState::no_data);
}

TEST_F(StateMachine, NoDataGoesToInitOnAnythingElseWithAnEmptyWindow) {
  for (const Status s : {Status::ok, Status::repeated, Status::wrong_sequence}) {
    state_ = SmCheckState{};
    EXPECT_EQ(sm_check(spec_, state_, s), SmState::init);
    EXPECT_EQ(state_.ok_count, 0);  // the status that woke it is cleared away
    EXPECT_EQ(state_.window_top_index, 0);
  }
}

TEST_F(StateMachine, InitGoesToValidAfterMinOkStateInit) {
  EXPECT_EQ(feed({Status::ok}), SmState::init);
  EXPECT_EQ(feed({Status::ok}), SmState::init);  // 1 OK in the window
  EXPECT_EQ(feed({Status::ok}), SmState::valid);
  EXPECT_EQ(state_.ok_count, 2);
}

TEST_F(StateMachine, InitStaysWhileOkResultsAreTooFew) {
  EXPECT_EQ(feed({Status::ok, Status::repeated, Status::ok, Status::no_data}), SmState::init);
}

TEST_F(StateMachine, InitGoesToInvalidOnMoreThanMaxErrorStateInit) {
  EXPECT_EQ(feed({Status::ok, Status::error}), SmState::init);  // 1 error tolerated
  EXPECT_EQ(feed({Status::error}), SmState::invalid);
}

TEST_F(StateMachine, ValidStaysWithEnoughOkResults) {
  reach_valid();
  EXPECT_EQ(feed({Status::error, Status::ok, Status::repeated, Status::ok}), SmState::valid);
}

TEST_F(StateMachine, ValidGoesToInvalidOnTooManyErrors) {
  reach_valid();
  EXPECT_EQ(feed({Status::error}), SmState::valid);
  EXPECT_EQ(feed({Status::error}), SmState::invalid);
}

TEST_F(StateMachine, ValidGoesToInvalidWhenOkResultsLeaveTheWindow) {
  reach_valid();
  // repetitions and missing data are no errors, but push the OKs out of the window
  EXPECT_EQ(feed({Status::repeated, Status::no_data}), SmState::valid);
  EXPECT_EQ(feed({Status::wrong_sequence}), SmState::invalid);
}

TEST_F(StateMachine, InvalidGoesToValidOnceErrorsLeftTheWindowAndOkResultsSuffice) {
  reach_invalid();
  EXPECT_EQ(feed({Status::ok, Status::ok}), SmState::invalid);  // an error still in the window
  EXPECT_EQ(feed({Status::ok}), SmState::valid);
}

TEST_F(StateMachine, ClearToInvalidEmptiesTheWindow) {
  spec_.clear_to_invalid = true;
  reach_valid();
  EXPECT_EQ(feed({Status::error, Status::error}), SmState::invalid);
  EXPECT_EQ(state_.error_count, 0);
  EXPECT_EQ(feed({Status::ok, Status::ok}), SmState::valid);  // no error left to wait out
}

TEST_F(StateMachine, ALargerWindowForgetsWhatTheSmallerOneHadDropped) {
  // INIT counts 2 results, VALID 4 (E2E_SMClearRemainingStatus on INIT → VALID).
  spec_ = StateMachineSpec{.window_size_valid = 4,
                           .window_size_init = 2,
                           .window_size_invalid = 2,
                           .min_ok_state_init = 2,
                           .max_error_state_init = 1,
                           .min_ok_state_valid = 1,
                           .max_error_state_valid = 1,
                           .min_ok_state_invalid = 2,
                           .max_error_state_invalid = 0};
  ASSERT_EQ(validate(spec_), "");
  EXPECT_EQ(feed({Status::ok, Status::error, Status::ok}), SmState::init);
  EXPECT_EQ(feed({Status::ok}), SmState::valid);  // the error left INIT's window of 2
  EXPECT_EQ(state_.error_count, 0);
  // VALID's window of 4 would still hold that error: one more and it had 2 > 1
  EXPECT_EQ(feed({Status::error}), SmState::valid);
  EXPECT_EQ(state_.error_count, 1);
}

TEST_F(StateMachine, TheLargestWindowCountsSixtyFourResults) {
  spec_ = StateMachineSpec{.window_size_valid = 64,
                           .window_size_init = 64,
                           .window_size_invalid = 64,
                           .min_ok_state_init = 64,
                           .min_ok_state_valid = 64,
                           .min_ok_state_invalid = 64};
  ASSERT_EQ(validate(spec_), "");
  feed({Status::ok});  // → INIT
  for (int i = 0; i < 63; ++i) ASSERT_EQ(feed({Status::ok}), SmState::init) << i;
  EXPECT_EQ(feed({Status::ok}), SmState::valid);
  EXPECT_EQ(state_.ok_count, 64);
  EXPECT_EQ(feed({Status::repeated}), SmState::invalid);
}

TEST(StateMachineValidate, DefaultsAndTheExampleAreValid) {
  EXPECT_EQ(validate(StateMachineSpec{}), "");
  EXPECT_EQ(validate(three_window()), "");
}

TEST(StateMachineValidate, RefusesWhatCannotWork) {
  const auto problem = [](StateMachineSpec s) { return validate(s); };
  StateMachineSpec s = three_window();
  s.window_size_valid = 65;
  EXPECT_NE(problem(s).find("window_size_valid must be 1-64"), std::string::npos);
  s = three_window();
  s.window_size_init = 4;
  EXPECT_NE(problem(s).find("window_size_init"), std::string::npos);
  s = three_window();
  s.window_size_invalid = 0;
  EXPECT_NE(problem(s).find("window_size_invalid"), std::string::npos);
  s = three_window();
  s.max_error_state_invalid = 2;  // more tolerant than INIT
  EXPECT_NE(problem(s).find("constr_3177"), std::string::npos);
  s = three_window();
  s.min_ok_state_valid = 3;  // stricter than INIT
  EXPECT_NE(problem(s).find("constr_3178"), std::string::npos);
  s = three_window();
  s.max_error_state_valid = 3;
  s.max_error_state_init = 2;
  EXPECT_NE(problem(s).find("min_ok_state_init + max_error_state_init exceeds"), std::string::npos);
}

}  // namespace
}  // namespace hil::io::can::e2e
