// Cross-check against python3-canmatrix, a DBC implementation independent of ours: the same
// file (tests/io/data/vehicle.dbc: Intel, Motorola, signed, float32/float64, simple and
// extended multiplexing, a 64-byte FD message) and the same seeded random values, encoded and
// decoded by both, compared byte for byte and value for value. Skipped without canmatrix.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <map>
#include <random>
#include <sstream>

#include "tests/io/can/dbc/dbc_codec_test_support.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace hil::io::can::dbc {
namespace {

using testing::hex;

constexpr const char* kDbc = HIL_SOURCE_DIR "/tests/io/data/vehicle.dbc";
constexpr int kCasesPerMessage = 60;

/// A random raw value a signal can hold within its [min|max] (multiplexors small, so that
/// branches get chosen).
double random_raw(const Signal& s, std::mt19937_64& rng) {
  if (s.value_type == ValueType::float32) {
    return static_cast<float>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
  }
  if (s.value_type == ValueType::float64)
    return std::uniform_real_distribution<double>(-1e12, 1e12)(rng);
  if (s.is_multiplexor) return static_cast<double>(rng() % 8);
  const std::uint32_t bits = std::min<std::uint32_t>(s.length, 52);  // exact in a double
  double low = s.is_signed ? -std::ldexp(1.0, static_cast<int>(bits) - 1) : 0.0;
  double high = std::ldexp(1.0, static_cast<int>(bits) - (s.is_signed ? 1 : 0)) - 1;
  if (s.minimum != 0.0 || s.maximum != 0.0) {
    low = std::max(low, std::ceil((s.minimum - s.offset) / s.factor));
    high = std::min(high, std::floor((s.maximum - s.offset) / s.factor));
  }
  const auto span = static_cast<std::uint64_t>(high - low) + 1;
  return low + static_cast<double>(rng() % span);
}

std::string number_text(const Signal& s, double raw) {
  if (s.value_type == ValueType::integer) return std::to_string(static_cast<std::int64_t>(raw));
  std::ostringstream out;
  out.precision(17);
  out << raw;
  std::string text = out.str();
  if (text.find_first_of(".en") == std::string::npos) text += ".0";  // Python reads a float
  return text;
}

struct Requests {
  std::string text;                   // to canmatrix_crosscheck.py
  std::vector<std::string> expected;  // what we computed, line by line
};

void add_encode_case(const Message& message, const CompiledMessage& c, std::mt19937_64& rng,
                     Requests& r) {
  std::vector<double> raw(message.signals.size());
  std::vector<double> physical(message.signals.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    raw[i] = random_raw(message.signals[i], rng);
    physical[i] = raw[i] * message.signals[i].factor + message.signals[i].offset;
  }
  std::vector<std::uint8_t> payload(c.frame_length, 0);
  const EncodeResult result = encode_message(c, physical, payload);
  ASSERT_TRUE(result.ok()) << message.name;
  std::string line = "encode " + message.name;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (is_selected(c, c.signals[i], payload)) {
      line += " " + message.signals[i].name + "=" + number_text(message.signals[i], raw[i]);
    }
  }
  r.text += line + "\n";
  r.expected.push_back(hex(payload));
}

void add_decode_case(const Message& message, const CompiledMessage& c, std::mt19937_64& rng,
                     Requests& r) {
  std::vector<std::uint8_t> payload(c.frame_length);
  for (std::uint8_t& b : payload) b = static_cast<std::uint8_t>(rng());
  payload[0] %= 4;  // multiplexors of MuxSimple/MuxExt: values that select branches
  payload[1] %= 8;
  std::vector<SignalValue> values(c.signals.size());
  (void)decode_message(c, payload, values);
  std::map<std::string, std::string> present;  // sorted by name, as the script prints
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!values[i].present) continue;
    const Signal& s = message.signals[i];
    std::int64_t raw = 0;
    (void)decode_raw(c.signals[i], payload, raw);
    std::string text = std::to_string(raw);
    if (s.value_type != ValueType::integer) text = "float:" + number_text(s, values[i].physical);
    present[s.name] = text;
  }
  std::string expected;
  for (const auto& [name, value] : present) {
    if (!expected.empty()) expected += ' ';
    expected.append(name).append("=").append(value);
  }
  r.text += "decode " + message.name + " " + hex(payload) + "\n";
  r.expected.push_back(expected);
}

/// canmatrix prints floats with Python's repr; turn "x=1.5" into "x=float:<our text>".
std::string normalise_floats(const std::string& line, const Message& message) {
  std::istringstream in(line);
  std::string out;
  for (std::string field; in >> field;) {
    const std::size_t eq = field.find('=');
    const Signal* s = message.find_signal(field.substr(0, eq));
    if (s != nullptr && s->value_type != ValueType::integer) {
      // strtod, not stod: subnormal values (ERANGE) are values here.
      field = field.substr(0, eq + 1) +
              "float:" + number_text(*s, std::strtod(field.c_str() + eq + 1, nullptr));
    }
    out += (out.empty() ? "" : " ") + field;
  }
  return out;
}

TEST(DbcCanmatrix, SameBytesAndValuesAsCanmatrixForEveryMessageKind) {
  constexpr const char* kPython = "/usr/bin/python3";
  if (io::testing::run_command(std::string(kPython) + " -c 'import canmatrix.formats'").status !=
      0) {
    GTEST_SKIP() << "python3-canmatrix not installed (tools/install-deps.sh)";
  }
  const Database db = load_dbc(kDbc);
  std::mt19937_64 rng(20240611);
  Requests requests;
  std::vector<const Message*> asked;
  for (const Message& m : db.messages) {
    const CompiledMessage c = compile(m);
    for (int i = 0; i < kCasesPerMessage; ++i) {
      add_encode_case(m, c, rng, requests);
      add_decode_case(m, c, rng, requests);
      asked.push_back(&m);
      asked.push_back(&m);
    }
  }
  const config::testing::TempDir dir;
  const auto input = dir.write("requests.txt", requests.text);
  const auto run = io::testing::run_command(
      std::string(kPython) + " " HIL_SOURCE_DIR "/tests/io/can/dbc/canmatrix_crosscheck.py " +
          std::string(kDbc) + " < " + input.string(),
      false);
  ASSERT_EQ(run.status, 0) << run.output;
  std::istringstream out(run.output);
  std::istringstream in(requests.text);
  std::size_t compared = 0;
  for (std::string line, request; std::getline(out, line) && std::getline(in, request);) {
    EXPECT_EQ(normalise_floats(line, *asked[compared]), requests.expected[compared]) << request;
    ++compared;
  }
  EXPECT_EQ(compared, requests.expected.size());
}

}  // namespace
}  // namespace hil::io::can::dbc
