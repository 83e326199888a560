#include "tools/cli/dbc/dbc_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_parser.hpp"
#include "io/can/trace/candump_frame.hpp"
#include "tools/cli/dbc/dbc_decode.hpp"
#include "tools/cli/dbc/dbc_show.hpp"
#include "tools/cli/dbc/dbc_values.hpp"

namespace hil::cli {

namespace dbc = io::can::dbc;

namespace {

struct DbcSpec {
  std::string file;
  std::string message;
  std::vector<std::string> assignments;
  std::string frame;
  std::string log;
  bool json = false;
  bool lenient = false;
};

dbc::Database load(const DbcSpec& o) {
  dbc::Database db = dbc::load_dbc(o.file, {.lenient = o.lenient});
  for (const std::string& w : db.warnings) fmt::print(stderr, "{}\n", w);
  return db;
}

/// The message named `key`, or with id `key` (decimal or 0x hex; 29-bit ids are tried too).
const dbc::Message& find_message(const dbc::Database& db, const std::string& key) {
  if (const dbc::Message* m = db.find_message(key)) return *m;
  std::string_view digits = key;
  int base = 10;
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint32_t id = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id, base);
  if (ec == std::errc{} && end == digits.data() + digits.size() && !digits.empty()) {
    if (const dbc::Message* m = db.find_message(id, false)) return *m;
    if (const dbc::Message* m = db.find_message(id, true)) return *m;
  }
  std::vector<std::string> names;
  for (const dbc::Message& m : db.messages) names.push_back(m.name);
  throw CLI::ValidationError("MESSAGE", fmt::format("no message '{}' in {}; it has: {}", key,
                                                    db.file_name, fmt::join(names, ", ")));
}

void run_encode(const DbcSpec& o) {
  const dbc::Database db = load(o);
  const dbc::Message& message = find_message(db, o.message);
  const dbc::CompiledMessage compiled = dbc::compile(message);
  std::vector<double> physical;
  for (const dbc::Signal& s : message.signals) physical.push_back(start_value(s));
  std::vector<bool> given(message.signals.size(), false);
  std::vector<std::optional<ExactInteger>> integers(message.signals.size());  // as written
  std::vector<std::string_view> texts(message.signals.size());
  for (const std::string& a : o.assignments) {
    const std::size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const dbc::Signal* s = message.find_signal(name);
    if (eq == std::string::npos || s == nullptr) {
      std::vector<std::string> names;
      for (const dbc::Signal& sig : message.signals) names.push_back(sig.name);
      throw CLI::ValidationError(
          "SIG=VALUE", fmt::format("'{}': expected SIGNAL=VALUE with a signal of {}: {}", a,
                                   message.name, fmt::join(names, ", ")));
    }
    const auto i = static_cast<std::size_t>(s - message.signals.data());
    physical[i] = parse_signal_value(*s, std::string_view(a).substr(eq + 1), a);
    texts[i] = std::string_view(a).substr(eq + 1);
    integers[i] = parse_exact_integer(texts[i]);
    given[i] = true;
  }
  io::can::CanFrame frame;
  const dbc::EncodeResult result = dbc::encode_frame(compiled, physical, frame);
  // Integers written as such into unscaled integer signals go in exactly, all 64 bits (a double
  // holds 53): 81985529216486895 stays …CDEF
  std::vector<bool> exact(message.signals.size(), false);
  for (std::size_t i = 0; i < message.signals.size(); ++i) {
    const dbc::CompiledSignal& c = compiled.signals[i];
    const std::optional<ExactInteger>& integer = integers[i];
    if (!integer || c.factor != 1.0 || c.offset != 0.0 || c.value_type != dbc::ValueType::integer ||
        !dbc::is_selected(compiled, c, frame.payload())) {
      continue;
    }
    exact[i] = true;
    if (dbc::encode_integer(c, integer->negative, integer->magnitude,
                            std::span(frame.data.data(), frame.length)) ==
        dbc::SignalStatus::saturated) {
      fmt::print(stderr, "warning: {}={} does not fit its {} {}-bit integer; saturated\n",
                 message.signals[i].name, texts[i], c.is_signed ? "signed" : "unsigned", c.length);
    }
  }
  for (std::size_t i = 0; i < message.signals.size(); ++i) {
    const dbc::Signal& s = message.signals[i];
    const dbc::CompiledSignal& c = compiled.signals[i];
    if (!dbc::is_selected(compiled, c, frame.payload())) {
      if (given[i]) {
        fmt::print(stderr, "warning: {} not encoded: multiplexor {} does not select it\n", s.name,
                   s.multiplexor);
      }
      continue;
    }
    std::uint64_t raw = 0;
    if (!exact[i] && dbc::physical_to_raw(c, physical[i], raw) == dbc::SignalStatus::saturated) {
      double sent = 0.0;
      (void)dbc::decode_signal(c, frame.payload(), sent);
      fmt::print(stderr, "warning: {}={} is out of range; saturated to {}{}\n", s.name,
                 format_number(physical[i]), format_number(sent),
                 s.unit.empty() ? "" : " " + s.unit);
    }
  }
  if (result.not_a_number != 0) fmt::print(stderr, "warning: NaN values encoded as raw 0\n");
  fmt::print("{}\n", io::can::to_frame_text(frame));
}

void add_file_options(CLI::App& cmd, const std::shared_ptr<DbcSpec>& o) {
  cmd.add_option("file", o->file, "DBC file")->required()->type_name("FILE");
  cmd.add_flag("--lenient", o->lenient,
               "Skip a statement or signal that cannot be read, with a located warning, instead "
               "of refusing the file");
}

void add_show(CLI::App& dbc_cmd, const std::shared_ptr<DbcSpec>& o) {
  CLI::App* cmd = dbc_cmd.add_subcommand("show", "List the messages, signals and value tables");
  cmd->footer(
      "Per message: id, length, classic/FD, cycle time (GenMsgCycleTime), senders.\n"
      "Per signal: layout START|LENGTH@ORDER±, bits covered (Intel LSB..MSB, Motorola MSB..LSB),\n"
      "type, (factor,offset), [min|max], unit, multiplexing (M, MUX=VALUES), receivers, VAL_.\n"
      "\nExample:\n  hilsim dbc show vehicle.dbc\n");
  add_file_options(*cmd, o);
  cmd->callback([o] { std::fputs(format_dbc_show(load(*o)).c_str(), stdout); });
}

void add_encode(CLI::App& dbc_cmd, const std::shared_ptr<DbcSpec>& o) {
  CLI::App* cmd = dbc_cmd.add_subcommand("encode", "Encode signal values into a CAN frame");
  cmd->footer(
      "Prints the frame in candump/cansend syntax: ID#HEX (3 hex digits for 11-bit ids,\n"
      "8 for 29-bit), or ID##FHEX for CAN FD (F: flags digit, 1 = BRS).\n"
      "VALUE is physical (raw * factor + offset) or a VAL_ name. Signals not given take their\n"
      "GenSigStartValue (or 0). Out-of-range values are saturated, with a warning on stderr.\n"
      "Multiplexed signals are encoded only where their multiplexor value selects them.\n"
      "\nExamples:\n"
      "  hilsim dbc encode vehicle.dbc WheelSpeeds speed_fl=12.5 speed_fr=12.5\n"
      "  hilsim dbc encode vehicle.dbc Powertrain gear=D torque_req=-20.5\n"
      "  hilsim dbc encode vehicle.dbc 0x200 mode=1 b=-3.5 | cansend can0\n");
  add_file_options(*cmd, o);
  cmd->add_option("message", o->message, "Message name or id (decimal or 0x hex)")
      ->required()
      ->type_name("MESSAGE");
  cmd->add_option("values", o->assignments, "Signal values")->type_name("SIG=VALUE ...");
  cmd->callback([o] { run_encode(*o); });
}

void add_decode(CLI::App& dbc_cmd, const std::shared_ptr<DbcSpec>& o) {
  CLI::App* cmd = dbc_cmd.add_subcommand("decode", "Decode a CAN frame or a candump log");
  cmd->footer(
      "FRAME is candump/cansend syntax: ID#HEX, ID##FHEX (CAN FD), 8 hex digits for 29-bit ids.\n"
      "Prints SIGNAL=VALUE UNIT lines, with the VAL_ name where there is one: gear=3 (D).\n"
      "Multiplexed signals appear only when their multiplexor selects them.\n"
      "With --log: a block per frame (timestamp, interface, frame, message name); bad lines are\n"
      "reported on stderr with their line numbers and skipped; frames with ids not in the DBC\n"
      "are counted and listed in the summary at the end. --json prints JSON (one object per\n"
      "frame and line with --log; the summary then goes to stderr). A candump log keeps its\n"
      "timestamps; an ASC or BLF trace (by content) shows seconds since its first frame, and\n"
      "channel N as interface can<N-1>.\n"
      "\nExamples:\n"
      "  hilsim dbc decode vehicle.dbc 101#FF33200000000000\n"
      "  hilsim dbc decode vehicle.dbc 300##1... --json\n"
      "  hilsim dbc decode vehicle.dbc --log runs/ravon-20240101T120000Z/can.log\n");
  add_file_options(*cmd, o);
  CLI::Option* frame =
      cmd->add_option("frame", o->frame, "One frame, e.g. 123#DEADBEEF")->type_name("FRAME");
  CLI::Option* log =
      cmd->add_option("--log", o->log, "A candump log, Vector ASC or BLF trace to decode")
          ->type_name("LOG");
  frame->excludes(log);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o, frame, log] {
    if (frame->count() == 0 && log->count() == 0) throw CLI::RequiredError("FRAME or --log LOG");
    const dbc::Database db = load(*o);
    if (log->count() != 0) {
      decode_log_command(db, o->log, o->json);
    } else {
      decode_frame_command(db, o->frame, o->json);
    }
  });
}

}  // namespace

void add_dbc_command(CLI::App& app) {
  auto options = std::make_shared<DbcSpec>();
  CLI::App* cmd =
      app.add_subcommand("dbc", "Show a DBC file, encode and decode CAN frames with it");
  cmd->require_subcommand(1);
  cmd->footer(
      "What production files write outside the DBC grammar (29-bit ids without the 0x80000000\n"
      "flag, names starting with a digit, a bare 'm', signals past their message, a CM_ without\n"
      "its ';') is read with a warning on stderr saying what was assumed. --lenient also skips a\n"
      "statement or signal that cannot be read (with a warning) instead of refusing the file.\n"
      "Run 'hilsim dbc <show|encode|decode> --help' for examples.\n"
      "DBC reading, semantics and errors: docs/can.md, section DBC.\n");

  add_show(*cmd, options);
  add_encode(*cmd, options);
  add_decode(*cmd, options);
}

}  // namespace hil::cli
