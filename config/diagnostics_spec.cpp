#include "config/diagnostics_spec.hpp"

#include "config/diagnostics.pb.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "config/text/suggest.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::config {
namespace {

class Checker {
 public:
  Checker(std::string_view prefix, const SourceMap& sources, ConfigErrors& errors)
      : prefix_(prefix), sources_(sources), errors_(errors) {}
  void fail(const std::string& field, const std::string& what) const {
    errors_.push_back(
        sources_.error(field.empty() ? prefix_ : fmt::format("{}.{}", prefix_, field), what));
  }
  /// `name` among `known` (a did-you-mean when close), else an error at `field`.
  bool one_of(const std::string& field, const std::string& name,
              const std::vector<std::string>& known, const char* what) const {
    if (std::find(known.begin(), known.end(), name) != known.end()) return true;
    const std::optional<std::string> near = closest_name(name, known);
    fail(field, fmt::format("\"{}\" is not {}{}", name, what,
                            near ? fmt::format(" (did you mean {}?)", *near) : ""));
    return false;
  }

 private:
  std::string prefix_;
  const SourceMap& sources_;
  ConfigErrors& errors_;
};

/// The channels the ECU sees on `bus`: every signal binding of its rx and tx blocks.
std::vector<std::string> mapped_channels(const io::can::CanBusSpec& bus) {
  std::set<std::string> out;
  for (const auto& r : bus.rx) {
    for (const auto& b : r.signals) out.insert(b.channel);
  }
  for (const auto& t : bus.tx) {
    for (const auto& b : t.signals) out.insert(b.channel);
  }
  return {out.begin(), out.end()};
}

MonitorSpec monitor(const Diagnostics::Monitor& m, const std::string& at, const Checker& check,
                    const std::vector<std::string>& sent,
                    const std::vector<std::string>& channels) {
  MonitorSpec s;
  using M = Diagnostics::Monitor;
  switch (m.what_case()) {
    case M::kMessageTimeout:
    case M::kMessageErrors: {
      const bool timeout = m.what_case() == M::kMessageTimeout;
      s.kind = timeout ? MonitorSpec::Kind::message_timeout : MonitorSpec::Kind::message_errors;
      s.message = timeout ? m.message_timeout() : m.message_errors();
      (void)check.one_of(at + (timeout ? ".message_timeout" : ".message_errors"), s.message, sent,
                         "a message the rig sends on the diagnostics bus (the ECU receives it)");
      break;
    }
    case M::kAbove:
    case M::kBelow: {
      const bool above = m.what_case() == M::kAbove;
      const M::Limit& l = above ? m.above() : m.below();
      s.kind = above ? MonitorSpec::Kind::above : MonitorSpec::Kind::below;
      s.channels = {l.channel()};
      s.value = l.value();
      (void)check.one_of(at + (above ? ".above.channel" : ".below.channel"), l.channel(), channels,
                         "a channel the diagnostics bus maps (the ECU sees it)");
      break;
    }
    case M::kPlausibility: {
      s.kind = MonitorSpec::Kind::plausibility;
      s.channels.assign(m.plausibility().channels().begin(), m.plausibility().channels().end());
      s.value = m.plausibility().max_spread();
      if (m.plausibility().has_min_value()) s.min_value = m.plausibility().min_value();
      if (s.channels.size() < 2) {
        check.fail(at + ".plausibility.channels",
                   "expected two or more channels that should agree");
      }
      for (std::size_t i = 0; i < s.channels.size(); ++i) {
        (void)check.one_of(fmt::format("{}.plausibility.channels[{}]", at, i), s.channels[i],
                           channels, "a channel the diagnostics bus maps (the ECU sees it)");
      }
      if (!(s.value > 0.0)) check.fail(at + ".plausibility.max_spread", "expected > 0");
      break;
    }
    case M::WHAT_NOT_SET:
      check.fail(at,
                 "no test; expected message_timeout, message_errors, above, below or "
                 "plausibility");
      break;
  }
  return s;
}

}  // namespace

ConfigErrors check_diagnostics(bool present, const Diagnostics& d,
                               const std::vector<io::can::CanBusSpec>& buses,
                               std::string_view prefix, const SourceMap& sources,
                               std::optional<DiagnosticsSpec>& out) {
  ConfigErrors errors;
  if (!present || d.off()) return errors;
  const Checker check(prefix, sources, errors);
  DiagnosticsSpec s;
  std::vector<std::string> bus_names;
  bus_names.reserve(buses.size());
  for (const auto& b : buses) bus_names.push_back(b.name);
  if (buses.empty()) {
    check.fail("", "the rig has no CAN bus; diagnostics run on one (can { buses { … } })");
    return errors;
  }
  if (d.has_bus()) {
    if (!check.one_of("bus", d.bus(), bus_names, "a CAN bus of the rig")) return errors;
    s.bus = static_cast<std::size_t>(std::find(bus_names.begin(), bus_names.end(), d.bus()) -
                                     bus_names.begin());
    if (s.bus != 0) {
      check.fail("bus", fmt::format("\"{}\": the built-in ECU, which answers, talks on the first "
                                    "bus (\"{}\")",
                                    d.bus(), bus_names.front()));
      return errors;
    }
  }
  const io::can::CanBusSpec& bus = buses[s.bus];
  s.extended_ids = d.extended_ids();
  s.fd = d.fd();
  const std::uint32_t max_id = s.extended_ids ? 0x1FFF'FFFFU : 0x7FFU;
  const auto id = [&](const char* field, bool has, std::uint32_t value, std::uint32_t fallback) {
    const std::uint32_t v = has ? value : fallback;
    if (v > max_id) {
      check.fail(field, fmt::format("0x{:X} is not a{} id; expected 0..0x{:X}", v,
                                    s.extended_ids ? " 29-bit" : "n 11-bit", max_id));
    }
    if (const auto* m = bus.database.find_message(v, s.extended_ids)) {
      check.fail(field, fmt::format("0x{:X} is message {} of {}; diagnostics need ids of their own",
                                    v, m->name, bus.database.file_name));
    }
    return v;
  };
  s.request_id = id("request_id", d.has_request_id(), d.request_id(), 0x7E0);
  s.response_id = id("response_id", d.has_response_id(), d.response_id(), 0x7E8);
  s.functional_id = id("functional_id", d.has_functional_id(), d.functional_id(), 0x7DF);
  if (s.request_id == s.response_id) check.fail("response_id", "the same id as request_id");
  if (d.block_size() > 255)
    check.fail("block_size", fmt::format("{}: expected 0..255", d.block_size()));
  s.block_size = static_cast<std::uint8_t>(std::min(d.block_size(), 255U));
  s.st_min_s = d.st_min_ms() / 1000.0;
  const bool st_ok =
      (d.st_min_ms() >= 0 && d.st_min_ms() <= 127 && std::trunc(d.st_min_ms()) == d.st_min_ms()) ||
      (d.st_min_ms() >= 0.1 && d.st_min_ms() <= 0.9);
  if (!st_ok) {
    check.fail(
        "st_min_ms",
        fmt::format("{}: expected whole ms 0..127 or 0.1..0.9 (ISO 15765-2 STmin)", d.st_min_ms()));
  }
  if (d.has_padding() && d.padding() > 255) check.fail("padding", "expected 0..255");
  if (d.has_padding()) s.padding = static_cast<std::uint8_t>(d.padding());

  const std::vector<std::string> channels = mapped_channels(bus);
  std::vector<std::string> sent;  // what the rig sends: the ECU receives it
  for (const auto& t : bus.tx) sent.push_back(t.message);

  std::set<std::uint32_t> did_ids;
  for (int i = 0; i < d.dids_size(); ++i) {
    const Diagnostics::Did& x = d.dids(i);
    const std::string at = fmt::format("dids[{}]", i);
    DidSpec did{.id = static_cast<std::uint16_t>(x.id()),
                .text = x.text(),
                .channel = x.channel(),
                .length = x.length(),
                .factor = x.has_factor() ? x.factor() : 1.0,
                .offset = x.offset(),
                .writable = x.writable(),
                .secured = x.secured()};
    if (x.id() > 0xFFFF) check.fail(at + ".id", fmt::format("0x{:X}: expected 0..0xFFFF", x.id()));
    if (!did_ids.insert(x.id()).second)
      check.fail(at + ".id", fmt::format("0x{:04X} twice", x.id()));
    if (x.has_text() == x.has_channel()) {
      check.fail(at, "expected text or channel (one of them)");
    } else if (x.has_text()) {
      if (did.length == 0) did.length = static_cast<std::uint32_t>(did.text.size());
      if (did.length == 0 || did.length > 4000 || did.text.size() > did.length) {
        check.fail(at + ".length", fmt::format("{} bytes for a text of {}: expected the text's "
                                               "length up to 4000",
                                               did.length, did.text.size()));
      }
      if (std::any_of(did.text.begin(), did.text.end(),
                      [](char c) { return c < 0x20 || c > 0x7E; })) {
        check.fail(at + ".text", "expected printable ASCII");
      }
    } else {
      (void)check.one_of(at + ".channel", did.channel, channels,
                         "a channel the diagnostics bus maps (the ECU sees it)");
      if (did.length < 1 || did.length > 4) {
        check.fail(at + ".length", fmt::format("{}: a channel's DID is 1..4 bytes", did.length));
      }
      if (did.factor == 0.0 || !std::isfinite(did.factor))
        check.fail(at + ".factor", "expected ≠ 0");
      if (did.writable)
        check.fail(at + ".writable", "a channel's DID is read-only; a text's may be written");
    }
    s.dids.push_back(std::move(did));
  }

  std::set<std::uint32_t> codes;
  std::set<std::string> names;
  for (int i = 0; i < d.dtcs_size(); ++i) {
    const Diagnostics::Dtc& x = d.dtcs(i);
    const std::string at = fmt::format("dtcs[{}]", i);
    DtcSpec dtc{.code = x.code(), .name = x.name()};
    if (x.code() > 0xFFFFFF || x.code() == 0) {
      check.fail(at + ".code",
                 fmt::format("0x{:X}: expected a 3-byte DTC, 0x000001..0xFFFFFF", x.code()));
    }
    if (!codes.insert(x.code()).second)
      check.fail(at + ".code", fmt::format("0x{:06X} twice", x.code()));
    if (!rt::is_valid_channel_name(x.name()) || x.name().find('.') != std::string::npos) {
      check.fail(at + ".name",
                 fmt::format("\"{}\": expected lower snake case (it names the channel "
                             "diag.dtc.<name>.status)",
                             x.name()));
    }
    if (!names.insert(x.name()).second)
      check.fail(at + ".name", fmt::format("\"{}\" twice", x.name()));
    if (!x.has_monitor()) check.fail(at, "no monitor; expected monitor { … }");
    dtc.monitor = monitor(x.monitor(), at + ".monitor", check, sent, channels);
    const Diagnostics::Debounce& b = x.debounce();
    if (b.has_fail_step()) dtc.debounce.fail_step = b.fail_step();
    if (b.has_pass_step()) dtc.debounce.pass_step = b.pass_step();
    if (b.has_fail_threshold()) dtc.debounce.fail_threshold = b.fail_threshold();
    if (b.has_pass_threshold()) dtc.debounce.pass_threshold = b.pass_threshold();
    if (b.has_jump_down()) dtc.debounce.jump_down = b.jump_down();
    const DebounceSpec& db = dtc.debounce;
    if (db.fail_step < 1 || db.pass_step < 1) check.fail(at + ".debounce", "steps must be >= 1");
    if (db.fail_threshold < 1 || db.fail_threshold > 127) {
      check.fail(at + ".debounce.fail_threshold",
                 fmt::format("{}: expected 1..127", db.fail_threshold));
    }
    if (db.pass_threshold > -1 || db.pass_threshold < -128) {
      check.fail(at + ".debounce.pass_threshold",
                 fmt::format("{}: expected -128..-1", db.pass_threshold));
    }
    if (x.has_confirmation_cycles()) dtc.confirmation_cycles = x.confirmation_cycles();
    if (x.has_aging_cycles()) dtc.aging_cycles = x.aging_cycles();
    if (dtc.confirmation_cycles < 1 || dtc.confirmation_cycles > 255) {
      check.fail(at + ".confirmation_cycles", "expected 1..255");
    }
    if (dtc.aging_cycles > 255) check.fail(at + ".aging_cycles", "expected 0..255");
    s.dtcs.push_back(std::move(dtc));
  }
  if (d.has_monitor_period_ms()) {
    if (!(d.monitor_period_ms() > 0 && d.monitor_period_ms() <= 10'000)) {
      check.fail("monitor_period_ms", "expected > 0 and <= 10000");
    }
    s.monitor_period_s = d.monitor_period_ms() / 1000.0;
  }
  if (d.has_security_mask()) s.security_mask = d.security_mask();
  if (d.has_security_seed()) s.security_seed = d.security_seed();
  std::set<std::uint32_t> routine_ids;
  for (int i = 0; i < d.routines_size(); ++i) {
    const Diagnostics::Routine& x = d.routines(i);
    const std::string at = fmt::format("routines[{}]", i);
    if (x.id() > 0xFFFF) check.fail(at + ".id", "expected 0..0xFFFF");
    if (!routine_ids.insert(x.id()).second)
      check.fail(at + ".id", fmt::format("0x{:04X} twice", x.id()));
    (void)check.one_of(at + ".channel", x.channel(), channels,
                       "a channel the diagnostics bus maps (the ECU sees it)");
    if (x.duration_ms() < 0 || x.duration_ms() > 60'000)
      check.fail(at + ".duration_ms", "expected 0..60000");
    s.routines.push_back({.id = static_cast<std::uint16_t>(x.id()),
                          .channel = x.channel(),
                          .duration_s = x.duration_ms() / 1000.0});
  }
  if (d.has_s3_ms()) {
    if (!(d.s3_ms() >= 100 && d.s3_ms() <= 600'000)) check.fail("s3_ms", "expected 100..600000");
    s.s3_s = d.s3_ms() / 1000.0;
  }
  if (d.has_read_dtcs_every_ms()) {
    if (!(d.read_dtcs_every_ms() == 0 ||
          (d.read_dtcs_every_ms() >= 1 && d.read_dtcs_every_ms() <= 60'000))) {
      check.fail("read_dtcs_every_ms", "expected 0 (never) or 1..60000");
    }
    s.read_dtcs_every_s = d.read_dtcs_every_ms() / 1000.0;
  }
  if (errors.empty()) out = std::move(s);
  return errors;
}

}  // namespace hil::config
