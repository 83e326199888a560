// Fmu's values of every FMI type (fmu.hpp): fmi2Get/Set{Real,Integer,Boolean,String} and
// fmi3Get/Set<T> by ValueType, doubles converted to and from the FMU's own types, FMI 3 binaries.
// RT-safe: no allocation.

#include <algorithm>
#include <cstdint>

#include "io/fmu/fmu.hpp"
#include "io/fmu/fmu_functions.hpp"
#include "io/fmu/fmu_values.hpp"

namespace hil::io::fmu {
namespace {

using detail::code;
using detail::kError;

template <typename T>
int get3(void* f, void* instance, std::span<const std::uint32_t> refs, void* values,
         std::size_t n) noexcept {
  if (f == nullptr) return kError;
  return static_cast<int>(reinterpret_cast<fmi3::GetValues<T>>(f)(
      instance, refs.data(), refs.size(), static_cast<T*>(values), n));
}

template <typename T>
int set3(void* f, void* instance, std::span<const std::uint32_t> refs, const void* values,
         std::size_t n) noexcept {
  if (f == nullptr) return kError;
  return static_cast<int>(reinterpret_cast<fmi3::SetValues<T>>(f)(
      instance, refs.data(), refs.size(), static_cast<const T*>(values), n));
}

}  // namespace

int Fmu::get_values(ValueType type, std::span<const std::uint32_t> refs, void* values,
                    std::size_t n) noexcept {
  if (description_.version == FmiVersion::fmi3) {  // CS or ME
    void* g = type <= ValueType::string ? f_->getters3[static_cast<std::size_t>(type)] : nullptr;
    switch (type) {
      case ValueType::float64:
        return get3<double>(g, instance_, refs, values, n);
      case ValueType::float32:
        return get3<float>(g, instance_, refs, values, n);
      case ValueType::int8:
        return get3<std::int8_t>(g, instance_, refs, values, n);
      case ValueType::uint8:
        return get3<std::uint8_t>(g, instance_, refs, values, n);
      case ValueType::int16:
        return get3<std::int16_t>(g, instance_, refs, values, n);
      case ValueType::uint16:
        return get3<std::uint16_t>(g, instance_, refs, values, n);
      case ValueType::int32:
        return get3<std::int32_t>(g, instance_, refs, values, n);
      case ValueType::uint32:
        return get3<std::uint32_t>(g, instance_, refs, values, n);
      case ValueType::int64:
        return get3<std::int64_t>(g, instance_, refs, values, n);
      case ValueType::uint64:
        return get3<std::uint64_t>(g, instance_, refs, values, n);
      case ValueType::boolean:
        return get3<bool>(g, instance_, refs, values, n);
      case ValueType::string:
        return get3<const char*>(g, instance_, refs, values, n);
      default:
        return kError;
    }
  }
  const auto call = [&](auto f, auto* out) {
    return f == nullptr ? kError : code(f(instance_, refs.data(), refs.size(), out));
  };
  switch (type) {
    case ValueType::float64:
      return call(f_->get2, static_cast<double*>(values));
    case ValueType::int32:
      return call(f_->get_int2, static_cast<int*>(values));
    case ValueType::boolean:
      return call(f_->get_bool2, static_cast<int*>(values));
    case ValueType::string:
      return call(f_->get_string2, static_cast<const char**>(values));
    default:
      return kError;
  }
}

int Fmu::set_values(ValueType type, std::span<const std::uint32_t> refs, const void* values,
                    std::size_t n) noexcept {
  if (description_.version == FmiVersion::fmi3) {  // CS or ME
    void* s = type <= ValueType::string ? f_->setters3[static_cast<std::size_t>(type)] : nullptr;
    switch (type) {
      case ValueType::float64:
        return set3<double>(s, instance_, refs, values, n);
      case ValueType::float32:
        return set3<float>(s, instance_, refs, values, n);
      case ValueType::int8:
        return set3<std::int8_t>(s, instance_, refs, values, n);
      case ValueType::uint8:
        return set3<std::uint8_t>(s, instance_, refs, values, n);
      case ValueType::int16:
        return set3<std::int16_t>(s, instance_, refs, values, n);
      case ValueType::uint16:
        return set3<std::uint16_t>(s, instance_, refs, values, n);
      case ValueType::int32:
        return set3<std::int32_t>(s, instance_, refs, values, n);
      case ValueType::uint32:
        return set3<std::uint32_t>(s, instance_, refs, values, n);
      case ValueType::int64:
        return set3<std::int64_t>(s, instance_, refs, values, n);
      case ValueType::uint64:
        return set3<std::uint64_t>(s, instance_, refs, values, n);
      case ValueType::boolean:
        return set3<bool>(s, instance_, refs, values, n);
      case ValueType::string:
        return set3<const char*>(s, instance_, refs, values, n);
      default:
        return kError;
    }
  }
  const auto call = [&](auto f, const auto* in) {
    return f == nullptr ? kError : code(f(instance_, refs.data(), refs.size(), in));
  };
  switch (type) {
    case ValueType::float64:
      return call(f_->set2, static_cast<const double*>(values));
    case ValueType::int32:
      return call(f_->set_int2, static_cast<const int*>(values));
    case ValueType::boolean:
      return call(f_->set_bool2, static_cast<const int*>(values));
    case ValueType::string:
      return call(f_->set_string2, static_cast<const char* const*>(values));
    default:
      return kError;
  }
}

int Fmu::set_as_double(std::span<const ValueType> types, std::span<const std::uint32_t> refs,
                       std::span<const double> values) noexcept {
  if (std::ranges::all_of(types, [](ValueType t) { return t == ValueType::float64; })) {
    return set_real(refs, values);
  }
  const FmiVersion version = description_.version;
  int worst = 0;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    std::uint64_t native = 0;
    double_to_native(types[i], version, values[i], &native);
    worst = std::max(worst, set_values(types[i], refs.subspan(i, 1), &native, 1));
  }
  return worst;
}

int Fmu::get_as_double(std::span<const ValueType> types, std::span<const std::uint32_t> refs,
                       std::span<double> values) noexcept {
  if (std::ranges::all_of(types, [](ValueType t) { return t == ValueType::float64; })) {
    return get_real(refs, values);
  }
  const FmiVersion version = description_.version;
  int worst = 0;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    std::uint64_t native = 0;
    worst = std::max(worst, get_values(types[i], refs.subspan(i, 1), &native, 1));
    values[i] = native_to_double(types[i], version, &native);
  }
  return worst;
}

int Fmu::get_binary(std::span<const std::uint32_t> refs, std::size_t sizes[],
                    const std::uint8_t* values[], std::size_t n) noexcept {
  if (f_->get_binary3 == nullptr) return kError;
  return code(f_->get_binary3(instance_, refs.data(), refs.size(), sizes, values, n));
}

int Fmu::set_binary(std::span<const std::uint32_t> refs, const std::size_t sizes[],
                    const std::uint8_t* const values[], std::size_t n) noexcept {
  if (f_->set_binary3 == nullptr) return kError;
  return code(f_->set_binary3(instance_, refs.data(), refs.size(), sizes, values, n));
}

}  // namespace hil::io::fmu
