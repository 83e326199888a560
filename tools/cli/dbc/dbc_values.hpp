#pragma once
// How `hilsim dbc` shows and reads signal values: numbers without float noise, VAL_ names,
// SIG=VALUE arguments. Setup/tool code (allocates, throws CLI errors).

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_model.hpp"

namespace hil::cli {

/// One decoded signal as shown to a user.
struct ShownValue {
  std::string number;  ///< "12.34", "-3", "1.5e-07"
  std::string label;   ///< the VAL_ text of the raw value, or ""
  std::int64_t raw = 0;
};

/// The decoded value of signal `index` of `message` in `payload` (the signal must be present).
[[nodiscard]] ShownValue show_value(const io::can::dbc::Message& message,
                                    const io::can::dbc::CompiledSignal& signal, std::size_t index,
                                    std::span<const std::uint8_t> payload);

/// A physical value as text: integers exactly, others with up to 15 significant digits.
[[nodiscard]] std::string format_number(double value);

/// "name=value unit (label)" — one line of `hilsim dbc decode`.
[[nodiscard]] std::string format_signal_line(const io::can::dbc::Signal& signal,
                                             const ShownValue& value);

/// The JSON of one decoded signal: {"value": 12.34, "unit": "rad/s", "raw": 1234, "label": "D"}.
[[nodiscard]] nlohmann::json signal_json(const io::can::dbc::Signal& signal,
                                         const io::can::dbc::CompiledSignal& compiled,
                                         std::span<const std::uint8_t> payload,
                                         const ShownValue& value);

/// The physical value of "SIG=VALUE"'s VALUE: a number or one of the signal's VAL_ names.
/// Throws CLI::ValidationError naming the argument.
[[nodiscard]] double parse_signal_value(const io::can::dbc::Signal& signal,
                                        std::string_view value_text, std::string_view argument);

/// An integer exactly as written (decimal with an optional sign, or 0x hex): |value| and its
/// sign, all 64 bits; nullopt for anything else (a fraction, an exponent, a label).
struct ExactInteger {
  bool negative = false;
  std::uint64_t magnitude = 0;
};
[[nodiscard]] std::optional<ExactInteger> parse_exact_integer(std::string_view text);

/// The physical value a signal starts with: GenSigStartValue (raw) scaled, or 0 scaled.
[[nodiscard]] double start_value(const io::can::dbc::Signal& signal);

}  // namespace hil::cli
