#include "io/console/console_protocol.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
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
  error = fmt::format(
      "unknown message type '{}' (known: subscribe, unsubscribe, can_view, stop, ping, read, "
      "write, release, fault, clear_fault, marker, step, pause, resume, lock, unlock)",
      type);
  return std::nullopt;
}

template <typename T>
void put(std::span<std::uint8_t> out, std::size_t at, T v) noexcept {
  std::memcpy(out.data() + at, &v, sizeof v);
}
template <typename T>
T get(std::span<const std::uint8_t> in, std::size_t at) noexcept {
  T v{};
  std::memcpy(&v, in.data() + at, sizeof v);
  return v;
}

std::size_t array_offset(const SampleFrameHeader& h, std::size_t part, std::size_t c,
                         std::size_t i) noexcept {
  const std::size_t n = std::size_t{h.samples} * h.channels;
  return kSampleHeaderBytes + 8 * (part * n + c * h.samples + i);
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

void put_header(std::span<std::uint8_t> frame, const SampleFrameHeader& h) noexcept {
  put<std::uint8_t>(frame, 0, kSamplesOp);
  put<std::uint8_t>(frame, 1, h.flags);
  put<std::uint16_t>(frame, 2, h.subscription);
  put<std::uint32_t>(frame, 4, h.seq);
  put<std::int64_t>(frame, 8, h.first_tick);
  put<std::uint32_t>(frame, 16, h.tick_stride);
  put<std::uint16_t>(frame, 20, h.samples);
  put<std::uint16_t>(frame, 22, h.channels);
  put<double>(frame, 24, h.wall_ms);
}

void put_sample(std::span<std::uint8_t> frame, const SampleFrameHeader& h, std::size_t c,
                std::size_t i, double value, double min, double max) noexcept {
  put<double>(frame, array_offset(h, 0, c, i), value);
  put<double>(frame, array_offset(h, 1, c, i), min);
  put<double>(frame, array_offset(h, 2, c, i), max);
}

std::optional<SampleFrameHeader> read_header(std::span<const std::uint8_t> frame) noexcept {
  if (frame.size() < kSampleHeaderBytes || get<std::uint8_t>(frame, 0) != kSamplesOp) {
    return std::nullopt;
  }
  SampleFrameHeader h;
  h.flags = get<std::uint8_t>(frame, 1);
  h.subscription = get<std::uint16_t>(frame, 2);
  h.seq = get<std::uint32_t>(frame, 4);
  h.first_tick = get<std::int64_t>(frame, 8);
  h.tick_stride = get<std::uint32_t>(frame, 16);
  h.samples = get<std::uint16_t>(frame, 20);
  h.channels = get<std::uint16_t>(frame, 22);
  h.wall_ms = get<double>(frame, 24);
  if (frame.size() != sample_frame_bytes(h.samples, h.channels)) return std::nullopt;
  return h;
}

double read_sample(std::span<const std::uint8_t> frame, const SampleFrameHeader& h,
                   std::size_t part, std::size_t c, std::size_t i) noexcept {
  return get<double>(frame, array_offset(h, part, c, i));
}

}  // namespace hil::io::console
