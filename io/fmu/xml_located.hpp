#pragma once
// modelDescription.xml's located errors and attribute readers (model_description.cpp,
// model_structure.cpp): "NAME:LINE:COLUMN: message" for a pugixml node, numbers and enums read
// from attributes with an error naming the attribute and the value. Internal to io/fmu.
// Setup phase (allocates, throws FmuError). Thread-safety: functions of their arguments.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <pugixml.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/fmu/model_description.hpp"

namespace hil::io::fmu::xml {

struct Located {
  std::string_view name;
  std::string_view text;

  /// "name:LINE:COLUMN: message" for a byte offset into the text.
  [[nodiscard]] std::string at(std::ptrdiff_t offset, std::string_view message) const {
    std::uint32_t line = 1;
    std::size_t line_start = 0;
    const auto end = static_cast<std::size_t>(
        std::clamp<std::ptrdiff_t>(offset, 0, static_cast<std::ptrdiff_t>(text.size())));
    for (std::size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return fmt::format("{}:{}:{}: {}", name, line, end - line_start + 1, message);
  }
  /// An element's offset_debug() is its name's, after the '<': the location is the '<'.
  [[nodiscard]] static std::ptrdiff_t offset_of(const pugi::xml_node& node) {
    return node.offset_debug() - (node.type() == pugi::node_element ? 1 : 0);
  }
  [[noreturn]] void fail(const pugi::xml_node& node, std::string_view message) const {
    throw FmuError(at(offset_of(node), message));
  }
  [[nodiscard]] std::uint32_t line_of(const pugi::xml_node& node) const {
    const auto end = static_cast<std::size_t>(
        std::clamp<std::ptrdiff_t>(offset_of(node), 0, static_cast<std::ptrdiff_t>(text.size())));
    return static_cast<std::uint32_t>(1 + std::count(text.begin(), text.begin() + end, '\n'));
  }
};

/// A number of type T from the whole of `text`, or nullopt.
template <typename T>
std::optional<T> parse(std::string_view text) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

template <typename T>
std::optional<T> number_attribute(const pugi::xml_node& node, const char* attribute,
                                  const Located& where) {
  const pugi::xml_attribute a = node.attribute(attribute);
  if (a.empty()) return std::nullopt;
  const auto value = parse<T>(a.value());
  if (!value) {
    where.fail(node, fmt::format("{}=\"{}\": expected {}", attribute, a.value(),
                                 std::is_floating_point_v<T> ? "a number"
                                 : std::is_signed_v<T>       ? "an integer"
                                                             : "an unsigned integer"));
  }
  return value;
}

inline bool bool_attribute(const pugi::xml_node& node, const char* attribute) {
  return std::string_view(node.attribute(attribute).value()) == "true";
}

template <typename E, std::size_t N>
E enum_attribute(const pugi::xml_node& node, const char* attribute,
                 const std::array<std::pair<std::string_view, E>, N>& names, E fallback,
                 const Located& where) {
  const pugi::xml_attribute a = node.attribute(attribute);
  if (a.empty()) return fallback;
  for (const auto& [name, value] : names) {
    if (name == a.value()) return value;
  }
  std::string expected;
  for (const auto& [name, value] : names)
    expected += fmt::format("{}\"{}\"", expected.empty() ? "" : ", ", name);
  where.fail(node, fmt::format("{}=\"{}\": expected one of {}", attribute, a.value(), expected));
}

/// The model structure of `root` into `md` (model_structure.cpp): outputs, derivatives, event
/// indicators, each variable's derivative attribute (`nodes[i]`: variables[i]'s element), the
/// arrays' sizes.
void read_model_structure(const pugi::xml_node& root, const std::vector<pugi::xml_node>& nodes,
                          ModelDescription& md, const Located& where);

}  // namespace hil::io::fmu::xml
