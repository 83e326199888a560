#include "config/sweep/rig_field.hpp"

#include <fmt/format.h>

#include "config/text/field_path.hpp"

namespace hil::config {
namespace {

namespace pb = google::protobuf;

void scalar_paths(const pb::Descriptor& d, const std::string& prefix, std::vector<std::string>& out,
                  int depth) {
  if (depth > 8) return;
  for (int i = 0; i < d.field_count(); ++i) {
    const pb::FieldDescriptor* f = d.field(i);
    if (f->is_repeated()) continue;
    const std::string path = prefix.empty() ? f->name() : prefix + "." + f->name();
    if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      scalar_paths(*f->message_type(), path, out, depth + 1);
    } else {
      out.push_back(path);
    }
  }
}

/// The first list field `path` goes through ("can.buses.uri" → buses), by names alone.
const pb::FieldDescriptor* list_on_path(const pb::Descriptor& root, std::string_view path) {
  const pb::Descriptor* d = &root;
  while (d != nullptr && !path.empty()) {
    const std::size_t dot = path.find('.');
    std::string_view name = path.substr(0, dot);
    name = name.substr(0, name.find('['));
    const pb::FieldDescriptor* f = d->FindFieldByName(std::string(name));
    if (f == nullptr) return nullptr;
    if (f->is_repeated()) return f;
    d = f->message_type();
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return nullptr;
}

}  // namespace

std::string number_text(double v) { return fmt::format("{}", v); }

std::vector<std::string> scalar_field_paths(const pb::Descriptor& root) {
  std::vector<std::string> out;
  scalar_paths(root, "", out, 0);
  return out;
}

std::optional<std::string> set_field(pb::Message& root, std::string_view path,
                                     const std::optional<double>& number, const std::string& text) {
  const auto steps = config::resolve_field_path(*root.GetDescriptor(), path);
  if (!steps || steps->empty()) {
    if (const pb::FieldDescriptor* list = list_on_path(*root.GetDescriptor(), path)) {
      return fmt::format(
          "\"{}\" is inside a list ({}): a sweep varies single fields (an "
          "overlay replaces whole lists)",
          path, list->name());
    }
    return fmt::format("no field \"{}\" in a rig", path);
  }
  pb::Message* message = &root;
  for (std::size_t i = 0; i < steps->size(); ++i) {
    const pb::FieldDescriptor* f = (*steps)[i].field;
    if (f->is_repeated() || (*steps)[i].index >= 0) {
      return fmt::format(
          "\"{}\" is inside a list ({}): a sweep varies single fields (an "
          "overlay replaces whole lists)",
          path, f->name());
    }
    const pb::Reflection* r = message->GetReflection();
    if (i + 1 < steps->size()) {
      message = r->MutableMessage(message, f);
      continue;
    }
    const bool has_text = !number.has_value();
    const auto integral = [&](double lo, double hi) -> std::optional<std::string> {
      if (has_text) return fmt::format(R"(expected a number for "{}", got "{}")", path, text);
      if (*number != std::floor(*number) || *number < lo || *number > hi) {
        return fmt::format("expected an integer in {}..{} for \"{}\", got {}", lo, hi, path,
                           number_text(*number));
      }
      return std::nullopt;
    };
    switch (f->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        if (has_text) return fmt::format(R"(expected a number for "{}", got "{}")", path, text);
        if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_DOUBLE) {
          r->SetDouble(message, f, *number);
        } else {
          r->SetFloat(message, f, static_cast<float>(*number));
        }
        return std::nullopt;
      case pb::FieldDescriptor::CPPTYPE_INT32:
        if (auto e = integral(INT32_MIN, INT32_MAX)) return e;
        r->SetInt32(message, f, static_cast<std::int32_t>(*number));
        return std::nullopt;
      case pb::FieldDescriptor::CPPTYPE_UINT32:
        if (auto e = integral(0, UINT32_MAX)) return e;
        r->SetUInt32(message, f, static_cast<std::uint32_t>(*number));
        return std::nullopt;
      case pb::FieldDescriptor::CPPTYPE_INT64:
        if (auto e = integral(-9.007199254740992e15, 9.007199254740992e15)) return e;
        r->SetInt64(message, f, static_cast<std::int64_t>(*number));
        return std::nullopt;
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        if (auto e = integral(0, 9.007199254740992e15)) return e;
        r->SetUInt64(message, f, static_cast<std::uint64_t>(*number));
        return std::nullopt;
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        if (auto e = integral(0, 1)) return e;
        r->SetBool(message, f, *number != 0.0);
        return std::nullopt;
      case pb::FieldDescriptor::CPPTYPE_STRING:
        if (!has_text) {
          return fmt::format("expected a text (texts: \"…\") for \"{}\", got {}", path,
                             number_text(*number));
        }
        r->SetString(message, f, text);
        return std::nullopt;
      case pb::FieldDescriptor::CPPTYPE_ENUM: {
        const pb::EnumValueDescriptor* v =
            has_text ? f->enum_type()->FindValueByName(text)
                     : f->enum_type()->FindValueByNumber(static_cast<int>(*number));
        if (v == nullptr) {
          return fmt::format("expected a value of {} for \"{}\"", f->enum_type()->name(), path);
        }
        r->SetEnum(message, f, v);
        return std::nullopt;
      }
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        return fmt::format("\"{}\" is a block; expected one of its fields", path);
    }
  }
  return std::nullopt;
}

}  // namespace hil::config
