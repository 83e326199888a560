#pragma once
// Helpers of the DBC codec tests: a one-message DBC from its SG_ lines, payloads as hex text.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_parser.hpp"

namespace hil::io::can::dbc::testing {

/// A parsed and compiled message "T" (id 1) of `length` bytes with the given SG_ lines
/// (without the leading " SG_ ") and extra statements after it.
struct OneMessage {
  Database db;
  CompiledMessage compiled;

  explicit OneMessage(const std::vector<std::string>& signals, std::uint32_t length = 8,
                      const std::string& extra = "") {
    std::string text = "BO_ 1 T: " + std::to_string(length) + " X\n";
    for (const std::string& s : signals) text += " SG_ " + s + "\n";
    db = parse_dbc(text + extra, "test.dbc");
    compiled = compile(db.messages.at(0));
  }
  [[nodiscard]] const CompiledSignal& signal(std::size_t i = 0) const {
    return compiled.signals.at(i);
  }
};

inline std::string hex(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  for (const std::uint8_t b : bytes) {
    out += kDigits[b >> 4U];
    out += kDigits[b & 0xFU];
  }
  return out;
}

inline std::vector<std::uint8_t> bytes(const std::string& hex_text) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex_text.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(std::stoul(hex_text.substr(i, 2), nullptr, 16)));
  }
  return out;
}

/// Encodes one physical value into a zeroed payload of `length` bytes.
inline std::vector<std::uint8_t> encoded(const CompiledSignal& s, double physical,
                                         std::size_t length,
                                         SignalStatus expected = SignalStatus::ok) {
  std::vector<std::uint8_t> payload(length, 0);
  EXPECT_EQ(encode_signal(s, physical, payload), expected) << physical;
  return payload;
}

inline std::int64_t raw_of(const CompiledSignal& s, const std::vector<std::uint8_t>& payload) {
  std::int64_t raw = 0;
  EXPECT_EQ(decode_raw(s, payload, raw), SignalStatus::ok);
  return raw;
}

inline double physical_of(const CompiledSignal& s, const std::vector<std::uint8_t>& payload) {
  double value = 0.0;
  EXPECT_EQ(decode_signal(s, payload, value), SignalStatus::ok);
  return value;
}

}  // namespace hil::io::can::dbc::testing
