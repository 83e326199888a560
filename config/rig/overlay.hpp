#pragma once
// How an overlay file changes the configuration it is applied to.

#include <google/protobuf/message.h>

namespace hil::config {

/// Applies `overlay` on top of `target` (same message type):
/// - a singular field the overlay sets replaces the target's value;
/// - a message field merges field by field (fields the overlay leaves out keep their value);
/// - setting another member of a oneof replaces the previous choice (and its settings);
/// - a repeated field the overlay sets replaces the whole list (an overlay cannot empty a
///   list: a list it leaves empty is a list it does not set).
/// Unlike Message::MergeFrom, which appends lists. Not thread-safe on `target`.
void apply_overlay(const google::protobuf::Message& overlay, google::protobuf::Message& target);

}  // namespace hil::config
