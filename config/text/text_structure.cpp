#include "config/text/text_structure.hpp"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <numeric>
#include <utility>

namespace hil::config {

namespace {

namespace pbio = google::protobuf::io;

class IgnoreErrors final : public pbio::ErrorCollector {
 public:
  void AddError(int /*line*/, pbio::ColumnNumber /*column*/,
                const std::string& /*message*/) override {}
};

/// Follows `name { ... }` blocks, `name: value` fields and `[ ... ]` lists.
class FieldTracker {
 public:
  void consume(const pbio::Tokenizer::Token& token) {
    just_read_.reset();
    const bool in_list = !frames_.empty() && frames_.back().is_list;
    if (token.type == pbio::Tokenizer::TYPE_SYMBOL) {
      consume_symbol(token.text, in_list);
    } else if (in_list) {
      // a value inside [ ... ]
    } else if (expecting_value_) {
      just_read_ = FieldMention{field().current.path, TokenPosition{token.line, token.column}};
      end_field();
    } else if (token.type == pbio::Tokenizer::TYPE_IDENTIFIER) {
      name_ = token.text;
      name_at_ = TokenPosition{token.line, token.column};
    }
  }

  [[nodiscard]] std::size_t depth() const noexcept { return frames_.size(); }

  [[nodiscard]] FieldAtPosition field() const {
    FieldMention current;
    for (const Frame& frame : frames_) {
      if (frame.is_list) continue;  // its elements' frames carry the same name
      if (!current.path.empty()) current.path += '.';
      current.path += frame.name;
    }
    if (!name_.empty()) {
      if (!current.path.empty()) current.path += '.';
      current.path += name_;
      current.at = name_at_;
    }
    return FieldAtPosition{std::move(current), just_read_};
  }

 private:
  struct Frame {
    std::string name;
    bool is_list = false;
  };

  void consume_symbol(const std::string& symbol, bool in_list) {
    if (symbol == "{" || symbol == "<") {
      std::string name = !name_.empty() ? name_ : in_list ? frames_.back().name : "?";
      frames_.push_back(Frame{std::move(name), false});
      end_field();
    } else if (symbol == "}" || symbol == ">") {
      while (!frames_.empty() && frames_.back().is_list) frames_.pop_back();
      if (!frames_.empty()) frames_.pop_back();
      end_field();
    } else if (symbol == "[") {
      frames_.push_back(Frame{name_.empty() ? "?" : name_, true});
      end_field();
    } else if (symbol == "]") {
      if (in_list) frames_.pop_back();
      end_field();
    } else if (in_list || symbol == "-" || symbol == "," || symbol == ";") {
      // part of a value, or a separator
    } else if (symbol == ":") {
      expecting_value_ = true;
    } else if (expecting_value_) {
      end_field();
    }
  }

  void end_field() {
    name_.clear();
    expecting_value_ = false;
  }

  std::vector<Frame> frames_;
  std::string name_;  // the field being read at the current level; empty between fields
  TokenPosition name_at_;
  bool expecting_value_ = false;
  std::optional<FieldMention> just_read_;  // set when the last token was a field's value
};

/// Calls `visit(tracker, next_token)` before each token is consumed, and once more at the end
/// of the text (with a token of type TYPE_END); stops early when `visit` returns false.
template <class Visit>
void walk_tokens(std::string_view text, Visit&& visit) {
  pbio::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  IgnoreErrors errors;
  pbio::Tokenizer tokenizer(&input, &errors);
  // The settings of google::protobuf::TextFormat::Parser, so that positions agree.
  tokenizer.set_comment_style(pbio::Tokenizer::SH_COMMENT_STYLE);
  tokenizer.set_allow_f_after_float(true);
  FieldTracker tracker;
  while (tokenizer.Next()) {
    if (!visit(std::as_const(tracker), tokenizer.current())) return;
    tracker.consume(tokenizer.current());
  }
  visit(std::as_const(tracker), tokenizer.current());
}

}  // namespace

std::optional<TokenPosition> find_nesting_deeper_than(std::string_view text,
                                                      std::size_t max_depth) {
  std::optional<TokenPosition> found;
  walk_tokens(text, [&](const FieldTracker& tracker, const pbio::Tokenizer::Token& token) {
    const bool opens = token.type == pbio::Tokenizer::TYPE_SYMBOL &&
                       (token.text == "{" || token.text == "<" || token.text == "[");
    if (opens && tracker.depth() >= max_depth) {
      found = TokenPosition{token.line, token.column};
      return false;
    }
    return true;
  });
  return found;
}

std::vector<FieldAtPosition> fields_at(std::string_view text,
                                       std::span<const TokenPosition> positions) {
  std::vector<std::size_t> order(positions.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return positions[a] < positions[b]; });

  std::vector<FieldAtPosition> fields(positions.size());
  std::size_t next = 0;
  walk_tokens(text, [&](const FieldTracker& tracker, const pbio::Tokenizer::Token& token) {
    const TokenPosition here{token.line, token.column};
    const bool at_end = token.type == pbio::Tokenizer::TYPE_END;
    while (next < order.size() && (at_end || positions[order[next]] <= here)) {
      fields[order[next++]] = tracker.field();
    }
    return next < order.size();
  });
  return fields;
}

}  // namespace hil::config
