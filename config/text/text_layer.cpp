#include "config/text/text_layer.hpp"

#include <fmt/format.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <optional>
#include <utility>
#include <vector>

#include "config/text/parse_error_text.hpp"
#include "config/text/text_structure.hpp"

namespace hil::config {

namespace {

namespace pb = google::protobuf;

struct Diagnostic {
  TokenPosition at;
  std::string message;
};

/// Keeps errors and warnings alike: a config file has no harmless mistakes (the parser warns
/// about unknown fields, which we let it skip so that all of them are reported).
class DiagnosticCollector final : public pb::io::ErrorCollector {
 public:
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    diagnostics.push_back(Diagnostic{TokenPosition{line, column}, message});
  }
  void AddWarning(int line, pb::io::ColumnNumber column, const std::string& message) override {
    AddError(line, column, message);
  }

  std::vector<Diagnostic> diagnostics;
};

/// Checks that make the text safe to hand to the parser; nullopt when it is.
[[nodiscard]] std::optional<ConfigError> refuse_before_parsing(const std::string& name,
                                                               const TextIndex& index) {
  if (index.text().size() > kMaxConfigBytes) {
    return ConfigError{.file = name,
                       .message = fmt::format("the file is too large ({} bytes); expected at "
                                              "most {} bytes",
                                              index.text().size(), kMaxConfigBytes)};
  }
  if (const auto deep = find_nesting_deeper_than(index.text(), kMaxConfigNesting)) {
    const TextPosition at = index.from_tokenizer(deep->line, deep->column);
    return ConfigError{.file = name,
                       .line = at.line,
                       .column = at.column,
                       .message = fmt::format("blocks are nested more than {} levels deep; "
                                              "expected a rig file (see config/rig.proto)",
                                              kMaxConfigNesting)};
  }
  return std::nullopt;
}

void report(const std::vector<Diagnostic>& diagnostics, const std::string& name,
            const TextIndex& index, const pb::Message& prototype,
            std::span<const IntegerRange> ranges, ConfigErrors& errors) {
  std::vector<TokenPosition> positions;
  positions.reserve(diagnostics.size());
  for (const Diagnostic& diagnostic : diagnostics) positions.push_back(diagnostic.at);
  const std::vector<FieldAtPosition> fields = fields_at(index.text(), positions);

  for (std::size_t i = 0; i < diagnostics.size() && i < kMaxErrorsPerFile; ++i) {
    const std::string& message = diagnostics[i].message;
    const bool after_value = is_reported_after_value(message) && fields[i].just_read;
    const FieldMention& field = after_value ? *fields[i].just_read : fields[i].current;
    ExplainedParseError explained = explain_parse_error(message, field.path, prototype, ranges);
    const bool at_field = field.at && (after_value || explained.about_field_name);
    const TokenPosition at = at_field ? *field.at : diagnostics[i].at;
    const TextPosition where = index.from_tokenizer(at.line, at.column);
    errors.push_back(ConfigError{.file = name,
                                 .line = where.line,
                                 .column = where.column,
                                 .field = field.path,
                                 .message = std::move(explained.message)});
  }
  if (diagnostics.size() > kMaxErrorsPerFile) {
    errors.push_back(ConfigError{.file = name,
                                 .message = fmt::format("{} more errors not shown",
                                                        diagnostics.size() - kMaxErrorsPerFile)});
  }
}

}  // namespace

ParsedLayer::ParsedLayer(std::string name, TextIndex text, std::unique_ptr<pb::Message> message,
                         std::unique_ptr<pb::TextFormat::ParseInfoTree> locations)
    : name_(std::move(name)),
      text_(std::move(text)),
      message_(std::move(message)),
      locations_(std::move(locations)) {}

ParsedLayer parse_layer(ConfigText source, const pb::Message& prototype,
                        std::span<const IntegerRange> ranges, ConfigErrors& errors) {
  std::unique_ptr<pb::Message> message(prototype.New());
  auto locations = std::make_unique<pb::TextFormat::ParseInfoTree>();
  TextIndex index(std::move(source.text));

  if (auto refused = refuse_before_parsing(source.name, index)) {
    errors.push_back(std::move(*refused));
  } else {
    DiagnosticCollector collector;
    pb::TextFormat::Parser parser;
    parser.RecordErrorsTo(&collector);
    parser.WriteLocationsTo(locations.get());
    parser.AllowUnknownField(true);  // reported by the collector; lets parsing go on
    pb::io::ArrayInputStream input(index.text().data(), static_cast<int>(index.text().size()));
    // On failure the message keeps what parsed before the error; the collector has the rest.
    (void)parser.Parse(&input, message.get());
    report(collector.diagnostics, source.name, index, prototype, ranges, errors);
  }
  return {std::move(source.name), std::move(index), std::move(message), std::move(locations)};
}

}  // namespace hil::config
