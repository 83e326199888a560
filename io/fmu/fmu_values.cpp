#include "io/fmu/fmu_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace hil::io::fmu {
namespace {

template <typename T>
T load(const void* p) noexcept {
  T x;
  std::memcpy(&x, p, sizeof(T));
  return x;
}

template <typename T>
void store(void* p, T x) noexcept {
  std::memcpy(p, &x, sizeof(T));
}

/// x rounded and saturated to integer type T (NaN: 0).
template <typename T>
T saturate(double x) noexcept {
  if (std::isnan(x)) return T{0};
  const double r = std::nearbyint(x);
  if (r <= static_cast<double>(std::numeric_limits<T>::lowest())) {
    return std::numeric_limits<T>::lowest();
  }
  if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(r);
}

template <typename T>
bool parse_into(void* p, std::string_view text) {
  T x{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec != std::errc{} || end != text.data() + text.size()) return false;
  store(p, x);
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

}  // namespace

ValueSet::ValueSet(FmiVersion version, std::span<const Entry> entries) : version_(version) {
  for (const Entry& e : entries) {
    const ValueType t = e.variable->value_type;
    if (t == ValueType::clock || t == ValueType::none) {
      throw FmuError(fmt::format("\"{}\" is a {}: it has no values to read or write",
                                 e.variable->name, e.variable->type_name));
    }
    auto g = std::ranges::find_if(groups_, [t](const Group& x) { return x.type == t; });
    if (g == groups_.end()) {
      groups_.push_back({.type = t});
      g = groups_.end() - 1;
    }
    g->refs.push_back(e.variable->value_reference);
    for (std::size_t i = 0; i < e.size; ++i) {
      slots_.push_back(
          {static_cast<std::uint32_t>(g - groups_.begin()), static_cast<std::uint32_t>(g->n++)});
    }
  }
  for (Group& g : groups_) {
    g.raw.assign((g.n * value_bytes(g.type, version_) + 7) / 8, 0);
    if (g.type == ValueType::string) {
      g.strings.assign(g.n, std::string());
      for (std::size_t i = 0; i < g.n; ++i) {
        store(reinterpret_cast<char*>(g.raw.data()) + i * 8, g.strings[i].c_str());
      }
    }
    if (g.type == ValueType::binary) {
      g.bytes.assign(g.n, {});
      g.sizes.assign(g.n, 0);
    }
  }
}

void* ValueSet::at(const Slot& s) noexcept {
  Group& g = groups_[s.group];
  return reinterpret_cast<char*>(g.raw.data()) + s.index * value_bytes(g.type, version_);
}

const void* ValueSet::at(const Slot& s) const noexcept {
  const Group& g = groups_[s.group];
  return reinterpret_cast<const char*>(g.raw.data()) + s.index * value_bytes(g.type, version_);
}

ValueType ValueSet::type(std::size_t k) const noexcept { return groups_[slots_[k].group].type; }

int ValueSet::get(Fmu& fmu) noexcept {
  int worst = 0;
  for (Group& g : groups_) {
    const int status =
        g.type == ValueType::binary
            ? fmu.get_binary(g.refs, g.sizes.data(),
                             reinterpret_cast<const std::uint8_t**>(g.raw.data()), g.n)
            : fmu.get_values(g.type, g.refs, g.raw.data(), g.n);
    worst = std::max(worst, status);
  }
  return worst;
}

int ValueSet::set(Fmu& fmu) noexcept {
  int worst = 0;
  for (Group& g : groups_) {
    const int status =
        g.type == ValueType::binary
            ? fmu.set_binary(g.refs, g.sizes.data(),
                             reinterpret_cast<const std::uint8_t* const*>(g.raw.data()), g.n)
            : fmu.set_values(g.type, g.refs, g.raw.data(), g.n);
    worst = std::max(worst, status);
  }
  return worst;
}

double native_to_double(ValueType type, FmiVersion version, const void* p) noexcept {
  switch (type) {
    case ValueType::float64:
      return load<double>(p);
    case ValueType::float32:
      return load<float>(p);
    case ValueType::int8:
      return load<std::int8_t>(p);
    case ValueType::uint8:
      return load<std::uint8_t>(p);
    case ValueType::int16:
      return load<std::int16_t>(p);
    case ValueType::uint16:
      return load<std::uint16_t>(p);
    case ValueType::int32:
      return load<std::int32_t>(p);
    case ValueType::uint32:
      return load<std::uint32_t>(p);
    case ValueType::int64:
      return static_cast<double>(load<std::int64_t>(p));
    case ValueType::uint64:
      return static_cast<double>(load<std::uint64_t>(p));
    case ValueType::boolean:
      return version == FmiVersion::fmi2 ? (load<int>(p) != 0 ? 1.0 : 0.0)
                                         : (load<bool>(p) ? 1.0 : 0.0);
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

void double_to_native(ValueType type, FmiVersion version, double x, void* p) noexcept {
  switch (type) {
    case ValueType::float64:
      store(p, x);
      break;
    case ValueType::float32:
      store(p, static_cast<float>(x));
      break;
    case ValueType::int8:
      store(p, saturate<std::int8_t>(x));
      break;
    case ValueType::uint8:
      store(p, saturate<std::uint8_t>(x));
      break;
    case ValueType::int16:
      store(p, saturate<std::int16_t>(x));
      break;
    case ValueType::uint16:
      store(p, saturate<std::uint16_t>(x));
      break;
    case ValueType::int32:
      store(p, saturate<std::int32_t>(x));
      break;
    case ValueType::uint32:
      store(p, saturate<std::uint32_t>(x));
      break;
    case ValueType::int64:
      store(p, saturate<std::int64_t>(x));
      break;
    case ValueType::uint64:
      store(p, saturate<std::uint64_t>(x));
      break;
    case ValueType::boolean:
      if (version == FmiVersion::fmi2) {
        store(p, x != 0.0 ? 1 : 0);
      } else {
        store(p, x != 0.0);
      }
      break;
    default:
      break;
  }
}

double ValueSet::as_double(std::size_t k) const noexcept {
  return native_to_double(type(k), version_, at(slots_[k]));
}

void ValueSet::set_double(std::size_t k, double x) noexcept {
  double_to_native(type(k), version_, x, at(slots_[k]));
}

std::string ValueSet::text(std::size_t k) const {
  const void* p = at(slots_[k]);
  switch (type(k)) {
    case ValueType::float64:
      return fmt::format("{}", load<double>(p));
    case ValueType::float32:
      return fmt::format("{}", load<float>(p));
    case ValueType::int8:
      return fmt::format("{}", load<std::int8_t>(p));
    case ValueType::uint8:
      return fmt::format("{}", load<std::uint8_t>(p));
    case ValueType::int16:
      return fmt::format("{}", load<std::int16_t>(p));
    case ValueType::uint16:
      return fmt::format("{}", load<std::uint16_t>(p));
    case ValueType::int32:
      return fmt::format("{}", load<std::int32_t>(p));
    case ValueType::uint32:
      return fmt::format("{}", load<std::uint32_t>(p));
    case ValueType::int64:
      return fmt::format("{}", load<std::int64_t>(p));
    case ValueType::uint64:
      return fmt::format("{}", load<std::uint64_t>(p));
    case ValueType::boolean:
      return as_double(k) != 0.0 ? "1" : "0";
    case ValueType::string: {
      const char* s = load<const char*>(p);
      std::string out = "\"";
      for (const char* c = s != nullptr ? s : ""; *c != '\0'; ++c) {
        out += *c == '"' ? std::string("\"\"") : std::string(1, *c);
      }
      return out + "\"";
    }
    case ValueType::binary: {
      const Group& g = groups_[slots_[k].group];
      const auto* bytes = load<const std::uint8_t*>(p);
      std::string out;
      for (std::size_t i = 0; bytes != nullptr && i < g.sizes[slots_[k].index]; ++i) {
        out += fmt::format("{:02x}", bytes[i]);
      }
      return out;
    }
    default:
      return "";
  }
}

bool ValueSet::parse(std::size_t k, std::string_view text) {
  const Slot& s = slots_[k];
  Group& g = groups_[s.group];
  void* p = at(s);
  if (g.type != ValueType::string) text = trim(text);
  switch (g.type) {
    case ValueType::float64:
      return parse_into<double>(p, text);
    case ValueType::float32:
      return parse_into<float>(p, text);
    case ValueType::int8:
      return parse_into<std::int8_t>(p, text);
    case ValueType::uint8:
      return parse_into<std::uint8_t>(p, text);
    case ValueType::int16:
      return parse_into<std::int16_t>(p, text);
    case ValueType::uint16:
      return parse_into<std::uint16_t>(p, text);
    case ValueType::int32:
      return parse_into<std::int32_t>(p, text);
    case ValueType::uint32:
      return parse_into<std::uint32_t>(p, text);
    case ValueType::int64:
      return parse_into<std::int64_t>(p, text);
    case ValueType::uint64:
      return parse_into<std::uint64_t>(p, text);
    case ValueType::boolean: {
      const bool on = text == "1" || text == "true";
      if (!on && text != "0" && text != "false") return false;
      set_double(k, on ? 1.0 : 0.0);
      return true;
    }
    case ValueType::string: {
      if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
        std::string unquoted;
        for (std::size_t i = 1; i + 1 < text.size(); ++i) {
          unquoted += text[i];
          if (text[i] == '"' && text[i + 1] == '"') ++i;
        }
        g.strings[s.index] = std::move(unquoted);
      } else {
        g.strings[s.index] = std::string(text);
      }
      store(p, g.strings[s.index].c_str());
      return true;
    }
    case ValueType::binary: {
      if (text.starts_with("0x")) text.remove_prefix(2);
      if (text.size() % 2 != 0) return false;
      std::vector<std::uint8_t> bytes(text.size() / 2);
      for (std::size_t i = 0; i < bytes.size(); ++i) {
        const auto [end, ec] =
            std::from_chars(text.data() + 2 * i, text.data() + 2 * i + 2, bytes[i], 16);
        if (ec != std::errc{} || end != text.data() + 2 * i + 2) return false;
      }
      g.bytes[s.index] = std::move(bytes);
      g.sizes[s.index] = g.bytes[s.index].size();
      store(p, static_cast<const std::uint8_t*>(g.bytes[s.index].data()));
      return true;
    }
    default:
      return false;
  }
}

}  // namespace hil::io::fmu
