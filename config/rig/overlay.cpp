#include "config/rig/overlay.hpp"

#include <vector>

namespace hil::config {

namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

/// Clears in `target` every list that `overlay` sets, at any depth where both have the
/// same message, so that the MergeFrom that follows replaces lists instead of appending.
void clear_lists_set_by(const Message& overlay, Message& target) {
  const auto& overlay_reflection = *overlay.GetReflection();
  const auto& target_reflection = *target.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  overlay_reflection.ListFields(overlay, &fields);
  for (const FieldDescriptor* field : fields) {
    if (field->is_repeated()) {
      target_reflection.ClearField(&target, field);
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE &&
               target_reflection.HasField(target, field)) {
      clear_lists_set_by(overlay_reflection.GetMessage(overlay, field),
                         *target_reflection.MutableMessage(&target, field));
    }
  }
}

}  // namespace

void apply_overlay(const Message& overlay, Message& target) {
  clear_lists_set_by(overlay, target);
  target.MergeFrom(overlay);
}

}  // namespace hil::config
