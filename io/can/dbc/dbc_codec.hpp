#pragma once
// The compiled, real-time form of DBC messages: bit positions and masks precomputed at setup
// (compile()), then decode/encode of one signal or a whole message with its multiplexer
// selection — noexcept, no allocation, no exceptions; failures are counted in the results.
//
// Semantics (as cantools and Vector CANdb++):
//  - physical = raw · factor + offset; signed raw values are two's complement, sign-extended;
//    SIG_VALTYPE_ floats are the IEEE bits of the raw value (factor/offset still apply);
//  - encode: raw = round-half-to-even((physical − offset) / factor); a physical value outside
//    [minimum, maximum] (unless both are 0) or a raw value outside what the bit length and
//    sign can hold is saturated to the nearest representable value and counted; NaN writes
//    raw 0 and is counted; unused bits are 0;
//  - multiplexing: a multiplexed signal is present iff its multiplexor's raw value lies in one
//    of its ranges and, for chains (m<n>M), its multiplexor is present too. Encoding writes
//    multiplexors first and skips signals their value does not select.
// Thread-safety: compiled messages are immutable after compile(); any number of threads may
// decode/encode with the same CompiledMessage (each with its own buffers).

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "io/can/can_frame.hpp"
#include "io/can/dbc/dbc_layout.hpp"
#include "io/can/dbc/dbc_model.hpp"

namespace hil::io::can::dbc {

struct CompiledSignal {
  BitLayout layout;
  ValueType value_type = ValueType::integer;
  bool is_signed = false;
  bool has_range = false;  ///< [minimum, maximum] is not [0, 0]
  std::uint32_t length = 0;
  double factor = 1.0;
  double offset = 0.0;
  double minimum = 0.0;
  double maximum = 0.0;
  double raw_lowest = 0.0;           ///< smallest raw integer (exact in double)
  double raw_upper_exclusive = 0.0;  ///< 2^length or 2^(length−1): first raw value too large
  std::int32_t multiplexor = -1;     ///< index of the selecting signal, −1 if not multiplexed
  std::uint32_t ranges_begin = 0;    ///< its selecting values: CompiledMessage::mux_ranges[b, e)
  std::uint32_t ranges_end = 0;
};

struct CompiledMessage {
  std::uint32_t id = 0;
  bool extended = false;
  bool fd = false;
  bool brs = false;
  std::uint8_t length = 0;        ///< bytes in the DBC
  std::uint8_t frame_length = 0;  ///< bytes on the wire (an FD length rounds up to a DLC size)
  std::vector<CompiledSignal> signals;  ///< same order as Message::signals
  std::vector<MuxRange> mux_ranges;
  std::vector<std::uint32_t> encode_order;  ///< multiplexors before the signals they select
};

enum class SignalStatus : std::uint8_t {
  ok,
  saturated,      ///< encode: the value was clamped to the signal's range
  not_a_number,   ///< encode: NaN, raw 0 written
  short_payload,  ///< the payload does not reach the signal's bytes; nothing read or written
};

struct SignalValue {
  double physical = 0.0;
  bool present = false;  ///< decoded: in the payload and selected by its multiplexor(s)
};

struct DecodeResult {
  std::uint32_t present = 0;        ///< signals decoded
  std::uint32_t not_selected = 0;   ///< multiplexed signals whose branch is not in the frame
  std::uint32_t short_payload = 0;  ///< signals beyond the payload's length
};

struct EncodeResult {
  std::uint32_t saturated = 0;
  std::uint32_t not_a_number = 0;
  bool bad_arguments = false;  ///< wrong number of values or payload shorter than frame_length
  [[nodiscard]] bool ok() const noexcept {
    return saturated == 0 && not_a_number == 0 && !bad_arguments;
  }
};

/// Compiles a checked message (from parse_dbc()). Setup phase: allocates.
[[nodiscard]] CompiledMessage compile(const Message& message);

/// The raw value of one signal: sign-extended for signed integers, the IEEE bits for floats.
[[nodiscard]] SignalStatus decode_raw(const CompiledSignal& signal,
                                      std::span<const std::uint8_t> payload,
                                      std::int64_t& raw) noexcept;
/// The physical value of one signal (its multiplexor is not consulted).
[[nodiscard]] SignalStatus decode_signal(const CompiledSignal& signal,
                                         std::span<const std::uint8_t> payload,
                                         double& physical) noexcept;
/// Writes one physical value into its bits (other bits untouched).
[[nodiscard]] SignalStatus encode_signal(const CompiledSignal& signal, double physical,
                                         std::span<std::uint8_t> payload) noexcept;
/// Writes an exact integer into an integer signal without scaling, for values a double cannot
/// hold (64-bit counters, ids): `negative` and `magnitude` (|value|). saturated (and the bits
/// of the nearest end of the signal's range) when it does not fit its length and sign;
/// not_a_number for a float signal (nothing written).
[[nodiscard]] SignalStatus encode_integer(const CompiledSignal& signal, bool negative,
                                          std::uint64_t magnitude,
                                          std::span<std::uint8_t> payload) noexcept;
/// The raw value `physical` encodes to (saturation reported as in encode_signal).
[[nodiscard]] SignalStatus physical_to_raw(const CompiledSignal& signal, double physical,
                                           std::uint64_t& raw_bits) noexcept;

/// True if the signal's multiplexor chain selects it in `payload` (always if not multiplexed).
[[nodiscard]] bool is_selected(const CompiledMessage& message, const CompiledSignal& signal,
                               std::span<const std::uint8_t> payload) noexcept;

/// Decodes every signal into values[i] (values.size() must be signals.size(); extra entries are
/// left alone, missing ones skipped).
[[nodiscard]] DecodeResult decode_message(const CompiledMessage& message,
                                          std::span<const std::uint8_t> payload,
                                          std::span<SignalValue> values) noexcept;

/// Zeroes payload[0, frame_length) and encodes physical[i] for every selected signal.
[[nodiscard]] EncodeResult encode_message(const CompiledMessage& message,
                                          std::span<const double> physical,
                                          std::span<std::uint8_t> payload) noexcept;

/// encode_message() into a whole frame: id, flags (extended, FD, BRS), length, data.
[[nodiscard]] EncodeResult encode_frame(const CompiledMessage& message,
                                        std::span<const double> physical, CanFrame& frame) noexcept;

/// The compiled messages of a database, found by id in O(log n) without allocation.
class CompiledDatabase {
 public:
  explicit CompiledDatabase(const Database& db);

  /// Index into messages() of the message with this id, or −1. Thread-safe (const).
  [[nodiscard]] std::int32_t find(std::uint32_t id, bool extended) const noexcept;
  [[nodiscard]] std::span<const CompiledMessage> messages() const noexcept { return messages_; }

 private:
  std::vector<CompiledMessage> messages_;  ///< same order as Database::messages
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_key_;  ///< sorted (id|ext<<32, index)
};

}  // namespace hil::io::can::dbc
