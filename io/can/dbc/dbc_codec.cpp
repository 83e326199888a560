#include "io/can/dbc/dbc_codec.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace hil::io::can::dbc {
namespace {

constexpr double kMaxFloat32 = std::numeric_limits<float>::max();
constexpr double kMaxFloat64 = std::numeric_limits<double>::max();

/// Rounds to the nearest integer, ties to even (IEEE 754 roundTiesToEven), whatever the FPU's
/// rounding mode.
double round_half_even(double x) noexcept {
  const double below = std::floor(x);
  const double fraction = x - below;  // exact for every finite double
  if (fraction > 0.5) return below + 1.0;
  if (fraction < 0.5) return below;
  return std::fmod(below, 2.0) == 0.0 ? below : below + 1.0;
}

std::int64_t sign_extend(std::uint64_t raw, const CompiledSignal& s) noexcept {
  if (!s.is_signed || s.length >= 64) return static_cast<std::int64_t>(raw);
  const std::uint64_t sign = std::uint64_t{1} << (s.length - 1);
  return static_cast<std::int64_t>((raw ^ sign) - sign);  // two's complement, C++20 modular
}

/// Clamps to [low, high]; sets `clamped` when it had to.
double clamp(double x, double low, double high, bool& clamped) noexcept {
  if (x < low) {
    clamped = true;
    return low;
  }
  if (x > high) {
    clamped = true;
    return high;
  }
  return x;
}

std::uint64_t integer_raw(const CompiledSignal& s, double x, bool& clamped) noexcept {
  const double r = round_half_even(x);
  if (r < s.raw_lowest) {
    clamped = true;
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(s.raw_lowest));
  }
  if (r >= s.raw_upper_exclusive) {
    clamped = true;
    return s.is_signed ? s.layout.mask >> 1U : s.layout.mask;
  }
  return s.is_signed ? static_cast<std::uint64_t>(static_cast<std::int64_t>(r))
                     : static_cast<std::uint64_t>(r);
}

}  // namespace

CompiledMessage compile(const Message& message) {
  CompiledMessage m;
  m.id = message.id;
  m.extended = message.extended;
  m.fd = message.fd;
  m.brs = message.brs;
  m.length = static_cast<std::uint8_t>(message.length);
  m.frame_length = static_cast<std::uint8_t>(
      message.fd ? dlc_to_length(length_to_dlc(message.length), true) : message.length);
  std::vector<std::uint32_t> depth(message.signals.size(), 0);
  for (std::size_t i = 0; i < message.signals.size(); ++i) {
    const Signal& s = message.signals[i];
    CompiledSignal c;
    c.layout = compute_layout(s.start_bit, s.length, s.byte_order);
    c.value_type = s.value_type;
    c.is_signed = s.is_signed;
    c.length = s.length;
    c.factor = s.factor;
    c.offset = s.offset;
    c.minimum = s.minimum;
    c.maximum = s.maximum;
    c.has_range = (s.minimum != 0.0 || s.maximum != 0.0) && s.minimum <= s.maximum;
    c.raw_lowest = s.is_signed ? -std::ldexp(1.0, static_cast<int>(s.length) - 1) : 0.0;
    c.raw_upper_exclusive = std::ldexp(1.0, static_cast<int>(s.length) - (s.is_signed ? 1 : 0));
    c.ranges_begin = static_cast<std::uint32_t>(m.mux_ranges.size());
    m.mux_ranges.insert(m.mux_ranges.end(), s.mux_ranges.begin(), s.mux_ranges.end());
    c.ranges_end = static_cast<std::uint32_t>(m.mux_ranges.size());
    for (const Signal* at = &s;
         at != nullptr && at->multiplexed() && depth[i] <= message.signals.size();
         at = message.find_signal(at->multiplexor)) {
      ++depth[i];
    }
    if (s.multiplexed()) {
      const Signal* mux = message.find_signal(s.multiplexor);
      c.multiplexor = mux != nullptr ? static_cast<std::int32_t>(mux - message.signals.data()) : -1;
    }
    m.signals.push_back(c);
    m.encode_order.push_back(static_cast<std::uint32_t>(i));
  }
  std::stable_sort(m.encode_order.begin(), m.encode_order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return depth[a] < depth[b]; });
  return m;
}

SignalStatus decode_raw(const CompiledSignal& signal, std::span<const std::uint8_t> payload,
                        std::int64_t& raw) noexcept {
  if (payload.size() < signal.layout.bytes_needed) return SignalStatus::short_payload;
  const std::uint64_t bits = read_raw(signal.layout, payload);
  raw = signal.value_type == ValueType::integer ? sign_extend(bits, signal)
                                                : static_cast<std::int64_t>(bits);
  return SignalStatus::ok;
}

SignalStatus decode_signal(const CompiledSignal& signal, std::span<const std::uint8_t> payload,
                           double& physical) noexcept {
  if (payload.size() < signal.layout.bytes_needed) return SignalStatus::short_payload;
  const std::uint64_t bits = read_raw(signal.layout, payload);
  double raw = 0.0;
  switch (signal.value_type) {
    case ValueType::integer:
      raw = signal.is_signed ? static_cast<double>(sign_extend(bits, signal))
                             : static_cast<double>(bits);
      break;
    case ValueType::float32:
      raw = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
      break;
    case ValueType::float64:
      raw = std::bit_cast<double>(bits);
      break;
  }
  physical = raw * signal.factor + signal.offset;
  return SignalStatus::ok;
}

SignalStatus physical_to_raw(const CompiledSignal& signal, double physical,
                             std::uint64_t& raw_bits) noexcept {
  if (std::isnan(physical)) {
    raw_bits = 0;
    return SignalStatus::not_a_number;
  }
  bool clamped = false;
  if (signal.has_range) physical = clamp(physical, signal.minimum, signal.maximum, clamped);
  const double x = (physical - signal.offset) / signal.factor;
  switch (signal.value_type) {
    case ValueType::integer:
      raw_bits = integer_raw(signal, x, clamped);
      break;
    case ValueType::float32:
      raw_bits = std::bit_cast<std::uint32_t>(
          static_cast<float>(clamp(x, -kMaxFloat32, kMaxFloat32, clamped)));
      break;
    case ValueType::float64:
      raw_bits = std::bit_cast<std::uint64_t>(clamp(x, -kMaxFloat64, kMaxFloat64, clamped));
      break;
  }
  return clamped ? SignalStatus::saturated : SignalStatus::ok;
}

SignalStatus encode_signal(const CompiledSignal& signal, double physical,
                           std::span<std::uint8_t> payload) noexcept {
  if (payload.size() < signal.layout.bytes_needed) return SignalStatus::short_payload;
  std::uint64_t raw = 0;
  const SignalStatus status = physical_to_raw(signal, physical, raw);
  write_raw(signal.layout, raw, payload);
  return status;
}

SignalStatus encode_integer(const CompiledSignal& signal, bool negative, std::uint64_t magnitude,
                            std::span<std::uint8_t> payload) noexcept {
  if (signal.value_type != ValueType::integer) return SignalStatus::not_a_number;
  if (payload.size() < signal.layout.bytes_needed) return SignalStatus::short_payload;
  const std::uint32_t n = signal.length;
  const std::uint64_t mask = n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  std::uint64_t raw = 0;
  bool clamped = false;
  if (!signal.is_signed) {
    if (negative && magnitude != 0) {
      clamped = true;  // below 0: the lowest
    } else if (magnitude > mask) {
      clamped = true;
      raw = mask;
    } else {
      raw = magnitude;
    }
  } else {
    const std::uint64_t top = std::uint64_t{1} << (n - 1);  // 2^(n−1)
    if (!negative && magnitude >= top) {
      clamped = true;
      raw = top - 1;
    } else if (negative && magnitude > top) {
      clamped = true;
      raw = top;  // −2^(n−1) in n-bit two's complement
    } else {
      raw = (negative ? ~magnitude + 1 : magnitude) & mask;
    }
  }
  write_raw(signal.layout, raw, payload);
  return clamped ? SignalStatus::saturated : SignalStatus::ok;
}

bool is_selected(const CompiledMessage& message, const CompiledSignal& signal,
                 std::span<const std::uint8_t> payload) noexcept {
  const CompiledSignal* at = &signal;
  // compile() of a checked message has no loops; the bound guards a hand-built one.
  for (std::size_t depth = 0; at->multiplexor >= 0 && depth < message.signals.size(); ++depth) {
    const CompiledSignal& mux = message.signals[static_cast<std::size_t>(at->multiplexor)];
    if (payload.size() < mux.layout.bytes_needed) return false;
    const std::uint64_t value = read_raw(mux.layout, payload);
    bool in_range = false;
    for (std::uint32_t r = at->ranges_begin; r < at->ranges_end && !in_range; ++r) {
      in_range = value >= message.mux_ranges[r].low && value <= message.mux_ranges[r].high;
    }
    if (!in_range) return false;
    at = &mux;
  }
  return at->multiplexor < 0;
}

DecodeResult decode_message(const CompiledMessage& message, std::span<const std::uint8_t> payload,
                            std::span<SignalValue> values) noexcept {
  DecodeResult result;
  const std::size_t n = std::min(values.size(), message.signals.size());
  for (std::size_t i = 0; i < n; ++i) {
    const CompiledSignal& s = message.signals[i];
    SignalValue& v = values[i];
    v.present = false;
    if (decode_signal(s, payload, v.physical) == SignalStatus::short_payload) {
      ++result.short_payload;
    } else if (!is_selected(message, s, payload)) {
      ++result.not_selected;
    } else {
      v.present = true;
      ++result.present;
    }
  }
  return result;
}

EncodeResult encode_message(const CompiledMessage& message, std::span<const double> physical,
                            std::span<std::uint8_t> payload) noexcept {
  EncodeResult result;
  if (physical.size() != message.signals.size() || payload.size() < message.frame_length) {
    result.bad_arguments = true;
    return result;
  }
  std::fill_n(payload.begin(), message.frame_length, std::uint8_t{0});
  for (const std::uint32_t i : message.encode_order) {
    const CompiledSignal& s = message.signals[i];
    if (!is_selected(message, s, payload)) continue;
    const SignalStatus status = encode_signal(s, physical[i], payload);
    if (status == SignalStatus::saturated) ++result.saturated;
    if (status == SignalStatus::not_a_number) ++result.not_a_number;
  }
  return result;
}

EncodeResult encode_frame(const CompiledMessage& message, std::span<const double> physical,
                          CanFrame& frame) noexcept {
  frame.id = message.id;
  frame.flags = static_cast<std::uint8_t>((message.extended ? kExtended : 0) |
                                          (message.fd ? kFd : 0) | (message.brs ? kBrs : 0));
  frame.length = message.frame_length;
  return encode_message(message, physical, frame.data);
}

CompiledDatabase::CompiledDatabase(const Database& db) {
  messages_.reserve(db.messages.size());
  for (const Message& m : db.messages) {
    by_key_.emplace_back(std::uint64_t{m.id} | (std::uint64_t{m.extended} << 32U),
                         static_cast<std::uint32_t>(messages_.size()));
    messages_.push_back(compile(m));
  }
  std::sort(by_key_.begin(), by_key_.end());
}

std::int32_t CompiledDatabase::find(std::uint32_t id, bool extended) const noexcept {
  const std::uint64_t key = std::uint64_t{id} | (std::uint64_t{extended} << 32U);
  const auto it =
      std::lower_bound(by_key_.begin(), by_key_.end(), key,
                       [](const auto& entry, std::uint64_t k) { return entry.first < k; });
  return it != by_key_.end() && it->first == key ? static_cast<std::int32_t>(it->second) : -1;
}

}  // namespace hil::io::can::dbc
