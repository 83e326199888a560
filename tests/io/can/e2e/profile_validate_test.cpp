// The profiles' configuration rules (validate), their counters and the header bits they own
// (io/can/e2e/profile).

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "io/can/e2e/profile.hpp"

namespace hil::io::can::e2e {
namespace {

ProfileSpec with_list(Profile profile) {
  ProfileSpec spec{.profile = profile};
  for (std::uint8_t i = 0; i < 16; ++i) spec.data_id_list[i] = static_cast<std::uint8_t>(i + 1);
  return spec;
}

void expect_problem(const ProfileSpec& spec, std::size_t bytes, const std::string& part) {
  const std::string problem = validate(spec, bytes);
  EXPECT_NE(problem.find(part), std::string::npos) << "problem: '" << problem << "'";
}

TEST(ProfileValidate, TheDefaultsOfEachProfileAreValidForEightBytes) {
  EXPECT_EQ(validate(ProfileSpec{.profile = Profile::p01}, 8), "");
  EXPECT_EQ(validate(with_list(Profile::p02), 8), "");
  EXPECT_EQ(validate(ProfileSpec{.profile = Profile::p05}, 8), "");
  EXPECT_EQ(validate(ProfileSpec{.profile = Profile::p11}, 8), "");
  EXPECT_EQ(validate(with_list(Profile::p22), 8), "");
}

TEST(ProfileValidate, LengthMustMatchThePayload) {
  expect_problem(ProfileSpec{.profile = Profile::p05}, 6, "differs from the payload (6 bytes)");
  expect_problem(ProfileSpec{.profile = Profile::p01}, 6, "exceeds the payload");
  expect_problem(ProfileSpec{.profile = Profile::p11, .data_length_bits = 60}, 8,
                 "not a positive multiple of 8");
  // P01/P02 may protect the leading bytes of a longer payload
  EXPECT_EQ(validate(ProfileSpec{.profile = Profile::p01, .data_length_bits = 64}, 64), "");
  expect_problem(ProfileSpec{.profile = Profile::p01, .data_length_bits = 248}, 64,
                 "at most 240 bits");
}

TEST(ProfileValidate, HeaderOutsideThePayloadIsRefused) {
  expect_problem(ProfileSpec{.profile = Profile::p05, .offset_bits = 48}, 8,
                 "the counter (bits 64-71) lies outside data_length_bits 64");
  expect_problem(ProfileSpec{.profile = Profile::p11, .crc_offset_bits = 64}, 8,
                 "the CRC (bits 64-71) lies outside");
  expect_problem(ProfileSpec{.profile = Profile::p22, .offset_bits = 56}, 8, "outside");
}

TEST(ProfileValidate, MisalignedOffsetsAreRefused) {
  expect_problem(ProfileSpec{.profile = Profile::p01, .crc_offset_bits = 4}, 8,
                 "crc_offset_bits is not a multiple of 8");
  expect_problem(ProfileSpec{.profile = Profile::p01, .counter_offset_bits = 10}, 8,
                 "counter_offset_bits is not a multiple of 4");
  expect_problem(ProfileSpec{.profile = Profile::p11,
                             .data_id_mode = DataIdMode::nibble,
                             .data_id_nibble_offset_bits = 13},
                 8, "data_id_nibble_offset_bits is not a multiple of 4");
  expect_problem(ProfileSpec{.profile = Profile::p05, .offset_bits = 4}, 8,
                 "offset_bits is not a multiple of 8");
  ProfileSpec p02 = with_list(Profile::p02);
  p02.offset_bits = 8;
  expect_problem(p02, 8, "fixed layout");
}

TEST(ProfileValidate, OverlappingHeaderFieldsAreRefused) {
  expect_problem(ProfileSpec{.profile = Profile::p01, .counter_offset_bits = 4}, 8,
                 "the CRC (bits 0-7) overlaps the counter (bits 4-7)");
  expect_problem(ProfileSpec{.profile = Profile::p11,
                             .data_id_mode = DataIdMode::nibble,
                             .data_id_nibble_offset_bits = 8},
                 8, "overlaps the data id nibble");
}

TEST(ProfileValidate, DataIdMustFitTheMode) {
  expect_problem(
      ProfileSpec{.profile = Profile::p01, .data_id = 0x123, .data_id_mode = DataIdMode::low}, 8,
      "more than 8 bits");
  expect_problem(
      ProfileSpec{.profile = Profile::p11, .data_id = 0x1234, .data_id_mode = DataIdMode::nibble},
      8, "more than 12 bits");
  expect_problem(ProfileSpec{.profile = Profile::p11, .data_id_mode = DataIdMode::alt}, 8,
                 "both and nibble only");
  expect_problem(ProfileSpec{.profile = Profile::p02}, 8, "P02 needs data_id_list");
  expect_problem(ProfileSpec{.profile = Profile::p22}, 8, "P22 needs data_id_list");
}

TEST(ProfileValidate, ReceiverLimitsFollowTheCounterRange) {
  expect_problem(ProfileSpec{.profile = Profile::p01, .max_delta_counter = 15}, 8,
                 "max_delta_counter must be 1-14");
  expect_problem(ProfileSpec{.profile = Profile::p05, .max_delta_counter = 0}, 8,
                 "max_delta_counter must be 1-255");
  ProfileSpec p02 = with_list(Profile::p02);
  p02.max_delta_counter = 15;
  p02.max_no_new_or_repeated_data = 15;
  EXPECT_EQ(validate(p02, 8), "");
  p02.sync_counter_init = 16;
  expect_problem(p02, 8, "sync_counter_init must be 0-15");
}

TEST(ProfileCounter, ModuloInitialAndNextPerProfile) {
  const ProfileSpec p01{.profile = Profile::p01};
  const ProfileSpec p02{.profile = Profile::p02};
  const ProfileSpec p05{.profile = Profile::p05};
  const ProfileSpec p11{.profile = Profile::p11};
  const ProfileSpec p22{.profile = Profile::p22};
  EXPECT_EQ(counter_modulo(p01), 15U);
  EXPECT_EQ(counter_modulo(p02), 16U);
  EXPECT_EQ(counter_modulo(p05), 256U);
  EXPECT_EQ(counter_modulo(p11), 15U);
  EXPECT_EQ(counter_modulo(p22), 16U);
  EXPECT_EQ(initial_counter(p01), 0U);
  EXPECT_EQ(initial_counter(p02), 1U);
  EXPECT_EQ(initial_counter(p05), 0U);
  EXPECT_EQ(initial_counter(p22), 1U);
  EXPECT_EQ(next_counter(p01, 14), 0U);
  EXPECT_EQ(next_counter(p11, 13), 14U);
  EXPECT_EQ(next_counter(p22, 15), 0U);
  EXPECT_EQ(next_counter(p05, 255), 0U);
}

TEST(ProfileHeader, BitsOwnedByEachProfile) {
  const HeaderLayout p01 =
      header_layout(ProfileSpec{.profile = Profile::p01, .data_id_mode = DataIdMode::nibble});
  EXPECT_EQ(p01.crc.begin, 0U);
  EXPECT_EQ(p01.crc.end, 8U);
  EXPECT_EQ(p01.counter.begin, 8U);
  EXPECT_EQ(p01.counter.end, 12U);
  EXPECT_EQ(p01.data_id_nibble.begin, 12U);
  EXPECT_EQ(p01.data_id_nibble.end, 16U);

  const HeaderLayout both = header_layout(ProfileSpec{.profile = Profile::p11});
  EXPECT_EQ(both.data_id_nibble.begin, both.data_id_nibble.end);  // not used
  EXPECT_FALSE(owns_bit(both, 12));                               // the application's

  const HeaderLayout p05 = header_layout(ProfileSpec{.profile = Profile::p05, .offset_bits = 24});
  EXPECT_EQ(p05.crc.begin, 24U);
  EXPECT_EQ(p05.crc.end, 40U);
  EXPECT_EQ(p05.counter.begin, 40U);
  EXPECT_EQ(p05.counter.end, 48U);

  const HeaderLayout p22 = header_layout(ProfileSpec{.profile = Profile::p22, .offset_bits = 16});
  EXPECT_TRUE(owns_bit(p22, 16));
  EXPECT_TRUE(owns_bit(p22, 27));
  EXPECT_FALSE(owns_bit(p22, 28));  // the high nibble beside P22's counter
  EXPECT_FALSE(owns_bit(p22, 15));

  const HeaderLayout p02 = header_layout(ProfileSpec{.profile = Profile::p02, .offset_bits = 40});
  EXPECT_EQ(p02.crc.begin, 0U);  // fixed layout: the offset does not move it
  EXPECT_EQ(p02.counter.end, 12U);
}

}  // namespace
}  // namespace hil::io::can::e2e
