#pragma once
// Values of an FMU's variables of any type, read or written together: the variables are
// grouped by their C type (Variable::value_type), one get or set call per type, each group's
// values kept in the C API's own layout (fmi2Boolean an int, fmi3Boolean a bool, FMI 3 arrays
// flattened in order). Value k of the set (variables in the order given, an array's values in
// turn) converts to a double — what a rig's channels hold: integers exact up to 2^53,
// booleans 0/1, strings and binaries NaN — and to and from the text of a CSV (reals to
// round-trip, integers exact to 64 bits, booleans 0/1, strings as given, binaries in hex).
// Setup: the constructor allocates. get(), set(), as_double() and set_double() allocate
// nothing (the RT path); text() and parse() allocate. Thread-safety: one thread at a time.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/fmu/fmu.hpp"

namespace hil::io::fmu {

/// One value in the C layout of `version` as a double (strings, binaries: NaN) and back
/// (rounded, saturated; booleans x ≠ 0; strings and binaries untouched). RT-safe.
[[nodiscard]] double native_to_double(ValueType type, FmiVersion version, const void* p) noexcept;
void double_to_native(ValueType type, FmiVersion version, double x, void* p) noexcept;

class ValueSet {
 public:
  struct Entry {
    const Variable* variable = nullptr;
    std::size_t size = 1;  ///< its values (an array's, at the structural parameters' values)
  };
  ValueSet() = default;
  /// Throws FmuError for a type that has no values (Clock).
  ValueSet(FmiVersion version, std::span<const Entry> entries);
  ValueSet(const ValueSet&) = delete;  // its strings point into itself
  ValueSet& operator=(const ValueSet&) = delete;
  ValueSet(ValueSet&&) = default;
  ValueSet& operator=(ValueSet&&) = default;
  ~ValueSet() = default;

  /// All values (arrays count each element).
  [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }
  [[nodiscard]] ValueType type(std::size_t k) const noexcept;
  /// Reads all values from the FMU; the worst status of its calls.
  int get(Fmu& fmu) noexcept;
  /// Writes all values to the FMU; the worst status.
  int set(Fmu& fmu) noexcept;
  [[nodiscard]] double as_double(std::size_t k) const noexcept;
  /// Rounds to the nearest integer and saturates at the type's range; booleans: x ≠ 0.
  /// Strings and binaries are left as they are.
  void set_double(std::size_t k, double x) noexcept;
  /// CSV text: reals to round-trip, integers exact, booleans 0/1, strings quoted ("" for a
  /// quote), binaries in hex.
  [[nodiscard]] std::string text(std::size_t k) const;
  /// From text (CSV or --set): false when it is no value of its type.
  bool parse(std::size_t k, std::string_view text);

 private:
  struct Group {
    ValueType type = ValueType::none;
    std::vector<std::uint32_t> refs;
    std::vector<std::uint64_t> raw;  ///< n values in the C layout
    std::size_t n = 0;
    std::vector<std::string> strings;              ///< owned, for set (strings)
    std::vector<std::vector<std::uint8_t>> bytes;  ///< owned, for set (binaries)
    std::vector<std::size_t> sizes;                ///< binaries
  };
  struct Slot {
    std::uint32_t group = 0;
    std::uint32_t index = 0;
  };
  [[nodiscard]] void* at(const Slot& s) noexcept;
  [[nodiscard]] const void* at(const Slot& s) const noexcept;

  FmiVersion version_ = FmiVersion::fmi2;
  std::vector<Group> groups_;
  std::vector<Slot> slots_;
};

}  // namespace hil::io::fmu
