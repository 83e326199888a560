#include "io/console/console_protocol.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <nlohmann/json.hpp>

namespace hil::io::console {

namespace {

using nlohmann::json;

static_assert(std::endian::native == std::endian::little, "the frame layout is little endian");

/// A field of `m` as T, or an error naming it.
template <typename T>
std::optional<T> field(const json& m, const char* name, bool required, std::string& error) {
  const auto it = m.find(name);
  if (it == m.end()) {
    if (required) error = fmt::format("'{}' is missing", name);
    return std::nullopt;
  }
  if constexpr (std::is_same_v<T, bool>) {
    if (it->is_boolean()) return it->get<bool>();
    error = fmt::format("'{}' must be true or false", name);
  } else if constexpr (std::is_same_v<T, double>) {
    if (it->is_number() && std::isfinite(it->get<double>())) return it->get<double>();
    error = fmt::format("'{}' must be a number", name);
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    if (it->is_number_integer()) return it->get<std::int64_t>();
    error = fmt::format("'{}' must be an integer", name);
  } else {
    static_assert(std::is_same_v<T, std::vector<std::string>>);
    if (it->is_array() && it->size() <= 4096) {
      std::vector<std::string> out;
      for (const json& e : *it) {
        if (!e.is_string() || e.get_ref<const std::string&>().empty()) {
          error = fmt::format("'{}' must be a list of channel names", name);
          return std::nullopt;
        }
        out.push_back(e.get<std::string>());
      }
      return out;
    }
    error = fmt::format("'{}' must be a list of at most 4096 channel names", name);
  }
  return std::nullopt;
}

std::optional<std::uint16_t> subscription_id(const json& m, std::string& error) {
  const std::optional<std::int64_t> id = field<std::int64_t>(m, "id", true, error);
  if (!id) return std::nullopt;
  if (*id < 1 || *id > 65535) {
    error = "'id' must be 1..65535";
    return std::nullopt;
  }
  return static_cast<std::uint16_t>(*id);
}

/// `{"tick": N}` or `{"when": "x > 1", "on": "edge" | "level"}`.
std::optional<TriggerRequest> trigger_of(const json& m, const char* name, bool edge_default,
                                         std::string& error) {
  const auto it = m.find(name);
  if (it == m.end()) return std::nullopt;
  const auto bad = [&] {
    error = fmt::format(
        "'{}' must be {{\"tick\": N}} or {{\"when\": \"CHANNEL OP VALUE\", \"on\": "
        "\"edge\" | \"level\"}}",
        name);
    return std::nullopt;
  };
  if (!it->is_object()) return bad();
  TriggerRequest t{.edge = edge_default};
  if (const auto tick = it->find("tick"); tick != it->end()) {
    if (!tick->is_number_integer() || tick->get<std::int64_t>() < 0 || it->size() != 1) {
      return bad();
    }
    t.kind = TriggerRequest::Kind::tick;
    t.tick = tick->get<std::int64_t>();
    return t;
  }
  const auto when = it->find("when");
  if (when == it->end() || !when->is_string()) return bad();
  std::string why;
  const std::optional<rt::ConditionText> c = rt::parse_condition(when->get<std::string>(), why);
  if (!c) {
    error = fmt::format("'{}.when': {}", name, why);
    return std::nullopt;
  }
  t.kind = TriggerRequest::Kind::condition;
  t.condition = *c;
  if (const auto on = it->find("on"); on != it->end()) {
    if (!on->is_string() || (*on != "edge" && *on != "level")) return bad();
    t.edge = *on == "edge";
  }
  for (const auto& [key, _] : it->items()) {
    if (key != "when" && key != "on") {
      error = fmt::format("'{}.{}' is not a trigger field (tick, when, on)", name, key);
      return std::nullopt;
    }
  }
  return t;
}

std::optional<CaptureRequest> capture_of(const json& m, std::string& error) {
  CaptureRequest c;
  const auto id = subscription_id(m, error);
  const auto channels = field<std::vector<std::string>>(m, "channels", true, error);
  const auto decimation = field<std::int64_t>(m, "decimation", false, error);
  const auto pre_s = field<double>(m, "pre_trigger_s", false, error);
  const auto pre_ticks = field<std::int64_t>(m, "pre_trigger_ticks", false, error);
  const auto duration_s = field<double>(m, "duration_s", false, error);
  const auto ticks = field<std::int64_t>(m, "ticks", false, error);
  if (!error.empty()) return std::nullopt;
  c.id = *id;
  c.channels = *channels;
  c.decimation = decimation.value_or(1);
  if (c.decimation < 1 || c.decimation > 1'000'000) {
    error = "'decimation' must be 1..1000000 (one sample every that many ticks)";
    return std::nullopt;
  }
  if ((pre_s && (*pre_s < 0 || *pre_s > 60)) ||
      (pre_ticks && (*pre_ticks < 0 || *pre_ticks > 1'000'000)) || (pre_s && pre_ticks)) {
    error = "'pre_trigger_s' (0..60) or 'pre_trigger_ticks' (0..1000000), not both";
    return std::nullopt;
  }
  if ((duration_s && (*duration_s <= 0 || *duration_s > 604'800)) ||
      (ticks && (*ticks < 1 || *ticks > 1'000'000'000'000)) || (duration_s && ticks)) {
    error = "'duration_s' (> 0, ≤ 604800) or 'ticks' (≥ 1), not both";
    return std::nullopt;
  }
  c.pre_trigger_s = pre_s.value_or(0.0);
  c.pre_trigger_ticks = pre_ticks.value_or(0);
  c.duration_s = duration_s.value_or(0.0);
  c.duration_ticks = ticks.value_or(0);
  if (auto start = trigger_of(m, "start", true, error)) c.start = *start;
  if (!error.empty()) return std::nullopt;
  c.stop = trigger_of(m, "stop", false, error);
  if (!error.empty()) return std::nullopt;
  if (const auto mode = m.find("mode"); mode != m.end()) {
    if (!mode->is_string() || (*mode != "single" && *mode != "normal")) {
      error = R"('mode' must be "single" (one shot) or "normal" (armed again after each))";
      return std::nullopt;
    }
    c.repeat = *mode == "normal";
  }
  if (c.repeat && c.duration_s == 0 && c.duration_ticks == 0 && !c.stop) {
    error = "a capture in normal mode needs a stop ('duration_s', 'ticks' or 'stop')";
    return std::nullopt;
  }
  return c;
}

/// `gamepad.<name>`: a list of at most 64 numbers within [low, high] (none: empty).
std::optional<std::vector<double>> gamepad_values(const json& m, const char* name, double low,
                                                  double high, std::string& error) {
  constexpr std::size_t most = 64;
  const auto it = m.find(name);
  if (it == m.end()) return std::vector<double>{};
  const auto bad = [&] {
    error = fmt::format("'gamepad.{}' must be a list of at most {} numbers in {}..{}", name, most,
                        low, high);
    return std::nullopt;
  };
  if (!it->is_array() || it->size() > most) return bad();
  std::vector<double> out;
  for (const json& v : *it) {
    if (!v.is_number() || !(v.get<double>() >= low && v.get<double>() <= high)) return bad();
    out.push_back(v.get<double>());
  }
  return out;
}

std::optional<Drive> drive_of(const json& m, std::string& error) {
  Drive d;
  if (const auto mode = m.find("mode"); mode != m.end()) {
    if (!mode->is_string() || (*mode != "human" && *mode != "auto")) {
      error = R"('mode' must be "human" (take the wheel) or "auto" (give it back))";
      return std::nullopt;
    }
    d.human = *mode == "human";
  }
  if (const auto pad = m.find("gamepad"); pad != m.end()) {
    if (!pad->is_object()) {
      error = R"('gamepad' must be {"axes": [−1..1, …], "buttons": [0..1, …]})";
      return std::nullopt;
    }
    auto axes = gamepad_values(*pad, "axes", -1.0, 1.0, error);
    if (!axes) return std::nullopt;
    auto buttons = gamepad_values(*pad, "buttons", 0.0, 1.0, error);
    if (!buttons) return std::nullopt;
    d.gamepad = Drive::Gamepad{.axes = std::move(*axes), .buttons = std::move(*buttons)};
  }
  if (const auto keys = m.find("keys"); keys != m.end()) {
    if (!keys->is_array() || keys->size() > 32) {
      error = "'keys' must be a list of at most 32 keys held (KeyboardEvent.code)";
      return std::nullopt;
    }
    std::vector<std::string> held;
    for (const json& k : *keys) {
      if (!k.is_string() || k.get_ref<const std::string&>().empty() ||
          k.get_ref<const std::string&>().size() > 32) {
        error = R"('keys' must be a list of key codes ("ArrowLeft", "KeyW"))";
        return std::nullopt;
      }
      held.push_back(k.get<std::string>());
    }
    d.keys = std::move(held);
  }
  if (!d.human && !d.gamepad && !d.keys) {
    error = "drive takes 'mode', 'gamepad' or 'keys'";
    return std::nullopt;
  }
  return d;
}

std::optional<ClientRequest> request_of(const std::string& type, const json& m,
                                        std::string& error) {
  if (type == "subscribe") {
    Subscribe s;
    const auto id = subscription_id(m, error);
    const auto channels = field<std::vector<std::string>>(m, "channels", true, error);
    const auto backfill = field<double>(m, "backfill_s", false, error);
    if (!error.empty()) return std::nullopt;
    s.id = *id;
    s.channels = *channels;
    s.backfill_s = backfill ? std::max(0.0, *backfill) : 0.0;
    return s;
  }
  if (type == "unsubscribe") {
    const auto id = subscription_id(m, error);
    if (!id) return std::nullopt;
    return Unsubscribe{*id};
  }
  if (type == "can_view") {
    const auto on = field<bool>(m, "on", true, error);
    if (!on) return std::nullopt;
    return CanView{*on};
  }
  if (type == "stop") return Stop{};
  if (type == "ping") return Ping{};
  if (type == "write") {
    const auto it = m.find("values");
    if (it == m.end() || !it->is_object() || it->empty() || it->size() > 4096) {
      error = "'values' must be an object of 1 to 4096 channel: number pairs";
      return std::nullopt;
    }
    Command c{.kind = Command::Kind::write};
    for (const auto& [name, value] : it->items()) {
      if (!value.is_number() || !std::isfinite(value.get<double>())) {
        error = fmt::format("'values.{}' must be a finite number", name);
        return std::nullopt;
      }
      c.values.emplace_back(name, value.get<double>());
    }
    return c;
  }
  if (type == "release") {
    const auto channels = field<std::vector<std::string>>(m, "channels", true, error);
    if (!channels) return std::nullopt;
    return Command{.kind = Command::Kind::release, .channels = *channels};
  }
  if (type == "fault") {
    const auto it = m.find("fault");
    if (it == m.end() || !it->is_object()) {
      error = "'fault' must be an object (config/fault.proto as JSON, docs/faults.md)";
      return std::nullopt;
    }
    return Command{.kind = Command::Kind::fault, .fault_json = it->dump()};
  }
  if (type == "marker") {
    const auto it = m.find("text");
    if (it == m.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
      error = "'text' must be the marker's text";
      return std::nullopt;
    }
    return Command{.kind = Command::Kind::marker, .name = it->get<std::string>()};
  }
  if (type == "uds") {
    const auto it = m.find("request");
    const auto functional = field<bool>(m, "functional", false, error);
    if (!error.empty()) return std::nullopt;
    if (it == m.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
      error = "'request' must be the UDS request in hex, e.g. \"22F190\"";
      return std::nullopt;
    }
    return Command{
        .kind = Command::Kind::uds,
        .name = (functional.value_or(false) ? "functional " : "") + it->get<std::string>()};
  }
  if (type == "step") {
    const auto ticks = field<std::int64_t>(m, "ticks", false, error);
    const auto seconds = field<double>(m, "seconds", false, error);
    if (!error.empty()) return std::nullopt;
    if (ticks.has_value() == seconds.has_value() ||
        (ticks && (*ticks < 1 || *ticks > 1'000'000'000)) ||
        (seconds && (*seconds <= 0.0 || *seconds > 86'400.0))) {
      error = "step takes 'ticks' (1..1e9) or 'seconds' (> 0, ≤ 86400)";
      return std::nullopt;
    }
    return Step{
        .kind = Step::Kind::step, .ticks = ticks.value_or(0), .seconds = seconds.value_or(0.0)};
  }
  if (type == "lock") return Lock{.take = true};
  if (type == "unlock") return Lock{.take = false};
  if (type == "pause") return Step{.kind = Step::Kind::pause};
  if (type == "resume") return Step{.kind = Step::Kind::resume};
  if (type == "read") {
    const auto channels = field<std::vector<std::string>>(m, "channels", true, error);
    if (!channels) return std::nullopt;
    return Read{*channels};
  }
  if (type == "clear_fault") {
    const auto it = m.find("name");
    if (it == m.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
      error = "'name' must be the fault's name";
      return std::nullopt;
    }
    return Command{.kind = Command::Kind::clear_fault, .name = it->get<std::string>()};
  }
  if (type == "drive") {
    if (auto d = drive_of(m, error)) return *d;
    return std::nullopt;
  }
  if (type == "info") return Info{};
  if (type == "channels") {
    const auto it = m.find("pattern");
    if (it == m.end()) return Channels{};
    if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
      error = "'pattern' must be a channel name or wildcard pattern";
      return std::nullopt;
    }
    return Channels{it->get<std::string>()};
  }
  if (type == "capture") {
    if (auto c = capture_of(m, error)) return *c;
    return std::nullopt;
  }
  if (type == "capture_stop") {
    const auto id = subscription_id(m, error);
    if (!id) return std::nullopt;
    return CaptureCancel{*id};
  }
  if (type == "wait_for") {
    const auto it = m.find("condition");
    if (it == m.end() || !it->is_string()) {
      error = "'condition' must be CHANNEL OP VALUE, e.g. \"vehicle.body.speed > 0.9\"";
      return std::nullopt;
    }
    const auto timeout = field<double>(m, "timeout_s", false, error);
    const auto step = field<bool>(m, "step", false, error);
    if (!error.empty()) return std::nullopt;
    if (timeout && (*timeout <= 0 || *timeout > 604'800)) {
      error = "'timeout_s' must be > 0 and ≤ 604800 (seconds of simulated time)";
      return std::nullopt;
    }
    const std::optional<rt::ConditionText> c = rt::parse_condition(it->get<std::string>(), error);
    if (!c) return std::nullopt;
    return WaitFor{
        .condition = *c, .timeout_s = timeout.value_or(10.0), .step = step.value_or(false)};
  }
  error = fmt::format(
      "unknown message type '{}' (known: info, channels, read, subscribe, unsubscribe, capture, "
      "capture_stop, wait_for, can_view, write, release, fault, clear_fault, marker, uds, step, "
      "pause, resume, lock, unlock, stop, ping, drive)",
      type);
  return std::nullopt;
}

}  // namespace

ClientMessage parse_client_message(std::string_view text) noexcept {
  ClientMessage out;
  try {
    const json m = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (m.is_discarded()) {
      out.error = "not JSON";
      return out;
    }
    if (!m.is_object()) {
      out.error = "a message is a JSON object with a \"type\"";
      return out;
    }
    if (const auto req = m.find("req"); req != m.end() && req->is_number_integer()) {
      out.req = req->get<std::int64_t>();
    }
    const auto type = m.find("type");
    if (type == m.end() || !type->is_string()) {
      out.error = "'type' is missing";
      return out;
    }
    out.request = request_of(type->get<std::string>(), m, out.error);
    if (!out.error.empty()) out.request.reset();
  } catch (const std::exception& e) {  // allocation failure, a JSON corner case
    out.request.reset();
    out.error = fmt::format("cannot read the message: {}", e.what());
  }
  return out;
}

}  // namespace hil::io::console
