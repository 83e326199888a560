#pragma once
// A rig field by its path, as an overlay writes it ("vehicle.sprung.mass"): set in a message
// from a number or a text, with the reason when it cannot be; the paths a sweep may vary (for
// did-you-mean). Thread-safety: pure functions (set_field mutates only its argument).

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hil::config {

/// A number as the overlay and the CSV write it: the fewest digits that read back the same.
[[nodiscard]] std::string number_text(double v);

/// Every scalar field path under `root` outside lists.
[[nodiscard]] std::vector<std::string> scalar_field_paths(const google::protobuf::Descriptor& root);

/// Sets the field at `path` of `root` (a RigConfig) from a number or a text; the error when it
/// cannot (unknown, inside a list, a block, a text for a number, a fraction for an integer, an
/// unknown enum name).
[[nodiscard]] std::optional<std::string> set_field(google::protobuf::Message& root,
                                                   std::string_view path,
                                                   const std::optional<double>& number,
                                                   const std::string& text);

}  // namespace hil::config
