// libFuzzer target for the DBC reader (io/can/dbc/dbc_parser.hpp): arbitrary bytes as a DBC file
// through lexing, parsing and the semantic checks, read three ways (the last byte chooses): as
// the command line reads (the field's deviations accepted), as a rig reads (strictly), and
// lenient (unreadable statements and signals skipped); a file that loads is compiled and every
// message is decoded from, and encoded into, payloads made of the input bytes. Besides crashes
// and sanitizer reports it traps when a promise breaks: an error or warning that does not start
// with "fuzz.dbc:<line>:<column>: ", a lenient read that refuses the file, a checked signal
// outside its message, an encode that rejects its own arguments, or a decode/encode/decode that
// does not reproduce an integer signal.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target dbc_fuzz
//   cmake --build --preset fuzz --target run_dbc_fuzz     # 60 s with the seed corpus

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_parser.hpp"

namespace {

namespace dbc = hil::io::can::dbc;

void require(bool promise) {
  if (!promise) __builtin_trap();
}

/// "fuzz.dbc:LINE:COLUMN: ..."
bool located(const std::string& message) {
  const std::string_view prefix = "fuzz.dbc:";
  if (message.rfind(prefix, 0) != 0) return false;
  std::size_t i = prefix.size();
  for (int field = 0; field < 2; ++field) {
    const std::size_t start = i;
    while (i < message.size() && message[i] >= '0' && message[i] <= '9') ++i;
    if (i == start || i == message.size() || message[i] != ':') return false;
    ++i;
  }
  return i < message.size() && message[i] == ' ';
}

void exercise(const dbc::CompiledMessage& m, std::span<const std::uint8_t> input,
              bool check_exact) {
  std::array<std::uint8_t, hil::io::can::kMaxFdLength> payload{};
  std::copy_n(input.begin(), std::min<std::size_t>(input.size(), m.frame_length), payload.begin());
  const std::span<const std::uint8_t> frame(payload.data(), m.frame_length);
  std::vector<dbc::SignalValue> first(m.signals.size());
  (void)dbc::decode_message(m, frame, first);
  std::vector<double> physical(m.signals.size(), 0.0);
  for (std::size_t i = 0; i < first.size(); ++i) physical[i] = first[i].physical;
  std::array<std::uint8_t, hil::io::can::kMaxFdLength> encoded{};
  require(!dbc::encode_message(m, physical, encoded).bad_arguments);
  std::vector<dbc::SignalValue> second(m.signals.size());
  (void)dbc::decode_message(m, std::span<const std::uint8_t>(encoded.data(), m.frame_length),
                            second);
  for (std::size_t i = 0; i < m.signals.size(); ++i) {
    const dbc::CompiledSignal& s = m.signals[i];
    // Plain integers (factor 1, no offset, no range, < 53 bits) must come back bit-exact
    // when they were decoded and are still selected — unless signals overlap (a warning).
    const bool exact = s.value_type == dbc::ValueType::integer && s.factor == 1.0 &&
                       s.offset == 0.0 && !s.has_range && s.length < 53;
    if (check_exact && exact && first[i].present && second[i].present) {
      require(first[i].physical == second[i].physical);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const int mode = size == 0 ? 0 : data[size - 1] % 3;
  const dbc::DbcReadSpec options{.accept_deviations = mode != 1, .lenient = mode == 2};
  try {
    const dbc::Database db = dbc::parse_dbc(text, "fuzz.dbc", options);
    for (const std::string& w : db.warnings) require(located(w));
    const dbc::CompiledDatabase compiled(db);
    for (std::size_t i = 0; i < db.messages.size(); ++i) {
      const dbc::CompiledMessage& m = compiled.messages()[i];
      for (const dbc::CompiledSignal& s : m.signals) require(s.layout.bytes_needed <= m.length);
      exercise(m, {data, size}, db.warnings.empty());
      require(compiled.find(m.id, m.extended) >= 0);
    }
  } catch (const dbc::DbcError& e) {
    require(!options.lenient);
    require(located(e.what()));
  }
  return 0;
}
