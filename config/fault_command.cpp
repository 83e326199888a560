#include "config/fault_command.hpp"

#include <fmt/format.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <stdexcept>

#include "config/fault.pb.h"

namespace hil::config {

namespace {

/// `fault` checked against the rig, as one line of text.
FaultCommand checked(const Fault& fault, const rt::ChannelTable& table,
                     const std::vector<io::can::CanBusSpec>& buses) {
  google::protobuf::RepeatedPtrField<Fault> one;
  *one.Add() = fault;
  std::vector<FaultSpec> out;
  const ConfigErrors errors = check_faults(one, table, {}, buses, "fault", SourceMap(), out);
  if (!errors.empty()) {
    std::string why;
    for (const ConfigError& e : errors) why += (why.empty() ? "" : "; ") + e.to_string();
    throw std::invalid_argument(why);
  }
  google::protobuf::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  std::string text;
  (void)printer.PrintToString(fault, &text);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return {.settings = std::move(out.front()), .text = std::move(text)};
}

Fault parsed_text(std::string_view text) {
  Fault fault;
  if (!google::protobuf::TextFormat::ParseFromString(std::string(text), &fault)) {
    throw std::invalid_argument("not a fault in Protobuf text format");
  }
  return fault;
}

}  // namespace

FaultCommand parse_fault_json(std::string_view json, const rt::ChannelTable& table,
                              const std::vector<io::can::CanBusSpec>& buses) {
  Fault fault;
  const auto status = google::protobuf::util::JsonStringToMessage(std::string(json), &fault);
  if (!status.ok()) {
    throw std::invalid_argument(
        fmt::format("'fault' is not a fault (docs/faults.md): {}", status.ToString()));
  }
  return checked(fault, table, buses);
}

FaultCommand parse_fault_text(std::string_view text, const rt::ChannelTable& table,
                              const std::vector<io::can::CanBusSpec>& buses) {
  return checked(parsed_text(text), table, buses);
}

std::string fault_name_of_text(std::string_view text) { return parsed_text(text).name(); }

}  // namespace hil::config
