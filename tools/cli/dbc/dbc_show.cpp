#include "tools/cli/dbc/dbc_show.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <vector>

#include "io/can/dbc/dbc_layout.hpp"
#include "tools/cli/dbc/dbc_values.hpp"

namespace hil::cli {

namespace dbc = io::can::dbc;

namespace {

constexpr std::size_t kColumns = 8;
using Row = std::array<std::string, kColumns>;

std::string one_line(std::string_view text) {
  std::string out(text);
  std::replace(out.begin(), out.end(), '\n', ' ');
  out.erase(std::remove(out.begin(), out.end(), '\r'), out.end());
  return out;
}

std::string id_text(const dbc::Message& m) {
  return m.extended ? fmt::format("0x{:08X} (29-bit)", m.id)
                    : fmt::format("0x{:03X} ({})", m.id, m.id);
}

std::string type_text(const dbc::Signal& s) {
  switch (s.value_type) {
    case dbc::ValueType::float32:
      return "float32";
    case dbc::ValueType::float64:
      return "float64";
    case dbc::ValueType::integer:
      break;
  }
  return s.is_signed ? "signed" : "unsigned";
}

std::string layout_text(const dbc::Signal& s) {
  const dbc::BitLayout l = dbc::compute_layout(s.start_bit, s.length, s.byte_order);
  const bool intel = s.byte_order == dbc::ByteOrder::little_endian;
  return fmt::format("{}|{}@{}{} {} bits {}..{}", s.start_bit, s.length, intel ? 1 : 0,
                     s.is_signed ? '-' : '+', intel ? "Intel" : "Motorola", l.first_bit,
                     l.last_bit);
}

std::string mux_text(const dbc::Signal& s) {
  std::vector<std::string> parts;
  if (s.is_multiplexor) parts.emplace_back("M");
  if (s.multiplexed()) {
    std::vector<std::string> ranges;
    for (const dbc::MuxRange& r : s.mux_ranges) {
      ranges.push_back(r.low == r.high ? fmt::format("{}", r.low)
                                       : fmt::format("{}..{}", r.low, r.high));
    }
    parts.push_back(fmt::format("{}={}", s.multiplexor, fmt::join(ranges, ",")));
  }
  return fmt::format("{}", fmt::join(parts, " "));
}

Row signal_row(const dbc::Signal& s) {
  std::string start;
  if (s.start_value_raw && *s.start_value_raw != 0.0) {
    start = "start " + format_number(start_value(s));
  }
  return {s.name,
          layout_text(s),
          type_text(s),
          fmt::format("({},{})", format_number(s.factor), format_number(s.offset)),
          fmt::format("[{}|{}]", format_number(s.minimum), format_number(s.maximum)),
          s.unit.empty() ? "-" : s.unit,
          mux_text(s) + (start.empty() ? "" : (mux_text(s).empty() ? "" : " ") + start),
          s.receivers.empty() ? "-" : fmt::format("{}", fmt::join(s.receivers, ","))};
}

void append_table(std::string& out, const std::vector<Row>& rows) {
  std::array<std::size_t, kColumns> width{};
  for (const Row& r : rows) {
    for (std::size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], r[c].size());
  }
  for (const Row& r : rows) {
    std::string line = " ";
    for (std::size_t c = 0; c < kColumns; ++c) {
      line += fmt::format(" {:<{}}", r[c], c + 1 == kColumns ? 0 : width[c]);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
}

std::string values_text(const std::vector<dbc::ValueDescription>& values) {
  std::string out;
  for (const dbc::ValueDescription& d : values) {
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", d.value, d.text);
  }
  return out;
}

void append_message(std::string& out, const dbc::Message& m) {
  std::string format = m.fd ? (m.brs ? "CAN FD with BRS" : "CAN FD") : "classic CAN";
  out += fmt::format("\nBO_ {} {}: {} bytes, {}", id_text(m), m.name, m.length, format);
  if (m.cycle_time_ms) out += fmt::format(", cycle {} ms", *m.cycle_time_ms);
  out += fmt::format(", sender {}", m.sender);
  if (!m.transmitters.empty())
    out += fmt::format(" (BO_TX_BU_ {})", fmt::join(m.transmitters, ","));
  out += "\n";
  if (!m.comment.empty()) out += "  \"" + one_line(m.comment) + "\"\n";
  if (m.signals.empty()) return;
  std::vector<Row> rows{
      {"signal", "layout", "type", "(factor,offset)", "[min|max]", "unit", "mux", "receivers"}};
  for (const dbc::Signal& s : m.signals) rows.push_back(signal_row(s));
  append_table(out, rows);
  for (const dbc::Signal& s : m.signals) {
    if (!s.value_descriptions.empty()) {
      out += fmt::format("  {} values: {}\n", s.name, values_text(s.value_descriptions));
    }
    if (!s.comment.empty()) out += fmt::format("  {}: \"{}\"\n", s.name, one_line(s.comment));
  }
}

}  // namespace

std::string format_dbc_show(const dbc::Database& db) {
  std::vector<std::string> nodes;
  for (const dbc::Node& n : db.nodes) nodes.push_back(n.name);
  std::string out = fmt::format("{}: VERSION \"{}\", {} message{}, {} node{}{}\n", db.file_name,
                                db.version, db.messages.size(), db.messages.size() == 1 ? "" : "s",
                                nodes.size(), nodes.size() == 1 ? "" : "s",
                                nodes.empty() ? "" : fmt::format(" ({})", fmt::join(nodes, ", ")));
  if (!db.comment.empty()) out += "\"" + one_line(db.comment) + "\"\n";
  for (const dbc::Message& m : db.messages) append_message(out, m);
  if (!db.value_tables.empty()) out += "\nvalue tables:\n";
  for (const dbc::ValueTable& t : db.value_tables) {
    out += fmt::format("  {}: {}\n", t.name, values_text(t.values));
  }
  return out;
}

}  // namespace hil::cli
