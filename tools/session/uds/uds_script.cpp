#include "tools/session/uds/uds_script.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>

#include "io/can/uds/uds_codec.hpp"

namespace hil::session {
namespace {

namespace uds = io::can::uds;

std::uint64_t hex_number(const std::string& word, std::uint64_t max, const std::string& what) {
  std::string_view text = word;
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value > max) {
    throw std::invalid_argument(
        fmt::format("\"{}\": expected {} in hex (0x{:X} at most)", word, what, max));
  }
  return value;
}

std::vector<std::uint8_t> hex_bytes(const std::string& word) {
  std::string digits;
  for (const char c : word) {
    if (c != ' ' && c != ':' && c != '-') digits += c;
  }
  if (digits.starts_with("0x")) digits.erase(0, 2);
  if (digits.empty() || digits.size() % 2 != 0) {
    throw std::invalid_argument(fmt::format("\"{}\": expected hex bytes (e.g. 22F190)", word));
  }
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < digits.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(hex_number(digits.substr(i, 2), 0xFF, "a byte")));
  }
  return out;
}

template <std::size_t N, typename Build>
std::vector<std::uint8_t> built(Build&& build) {
  std::array<std::uint8_t, N> buffer{};
  const std::size_t n = build(std::span<std::uint8_t>(buffer));
  return {buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n)};
}

bool is_verb(const std::string& w) {
  static const std::array<std::string_view, 14> kVerbs{
      "session",  "reset",     "tester-present", "read-dtc",  "count-dtc", "supported-dtc",
      "dtc-info", "clear-dtc", "read-did",       "write-did", "security",  "routine",
      "raw",      "wait"};
  return std::find(kVerbs.begin(), kVerbs.end(), w) != kVerbs.end();
}

}  // namespace

std::vector<UdsStep> parse_uds_steps(const std::vector<std::string>& words) {
  std::vector<UdsStep> steps;
  std::size_t i = 0;
  const auto next = [&](const std::string& verb, const char* what) -> const std::string& {
    if (i >= words.size() || is_verb(words[i])) {
      throw std::invalid_argument(fmt::format("{}: expected {}", verb, what));
    }
    return words[i++];
  };
  const auto optional_next = [&]() -> const std::string* {
    return i < words.size() && !is_verb(words[i]) ? &words[i++] : nullptr;
  };
  while (i < words.size()) {
    const std::string& verb = words[i++];
    UdsStep s{.text = verb};
    if (verb == "session") {
      const std::string& n = next(verb, "a session: 1 default, 2 programming, 3 extended");
      s.text += " " + n;
      const auto session = static_cast<std::uint8_t>(hex_number(n, 0x7F, "a session"));
      s.request = built<2>([&](auto out) {
        return uds::build_session_control(static_cast<uds::Session>(session), false, out);
      });
    } else if (verb == "reset") {
      const std::string* how = optional_next();
      const uds::ResetType type =
          how != nullptr && *how == "soft" ? uds::ResetType::soft : uds::ResetType::hard;
      if (how != nullptr && *how != "soft" && *how != "hard") {
        throw std::invalid_argument(fmt::format("reset {}: expected hard or soft", *how));
      }
      if (how != nullptr) s.text += " " + *how;
      s.request = built<2>([&](auto out) { return uds::build_ecu_reset(type, false, out); });
    } else if (verb == "tester-present") {
      s.request = built<2>([&](auto out) { return uds::build_tester_present(false, out); });
    } else if (verb == "read-dtc" || verb == "count-dtc") {
      const std::string* mask = optional_next();
      const auto m = static_cast<std::uint8_t>(
          mask != nullptr ? hex_number(*mask, 0xFF, "a status mask") : 0xFF);
      if (mask != nullptr) s.text += " " + *mask;
      s.request = built<3>([&](auto out) {
        return uds::build_read_dtc_by_status(verb == "read-dtc"
                                                 ? uds::dtc_report::kByStatusMask
                                                 : uds::dtc_report::kNumberByStatusMask,
                                             m, out);
      });
    } else if (verb == "supported-dtc") {
      s.request = built<2>([&](auto out) { return uds::build_read_supported_dtcs(out); });
    } else if (verb == "dtc-info") {
      const std::string& code = next(verb, "a DTC (e.g. C12300)");
      s.text += " " + code;
      const auto dtc = static_cast<std::uint32_t>(hex_number(code, 0xFFFFFF, "a DTC"));
      s.request = built<6>([&](auto out) {
        return uds::build_read_dtc_record(uds::dtc_report::kExtDataRecordByDtcNumber, dtc,
                                          uds::kAllRecords, out);
      });
    } else if (verb == "clear-dtc") {
      const std::string* group = optional_next();
      const auto g = static_cast<std::uint32_t>(
          group != nullptr ? hex_number(*group, 0xFFFFFF, "a DTC group") : uds::kAllDtcGroups);
      if (group != nullptr) s.text += " " + *group;
      s.request = built<4>([&](auto out) { return uds::build_clear_dtc(g, out); });
    } else if (verb == "read-did") {
      std::vector<std::uint16_t> dids;
      dids.push_back(
          static_cast<std::uint16_t>(hex_number(next(verb, "a DID (e.g. F190)"), 0xFFFF, "a DID")));
      s.text += " " + words[i - 1];
      while (const std::string* more = optional_next()) {
        dids.push_back(static_cast<std::uint16_t>(hex_number(*more, 0xFFFF, "a DID")));
        s.text += " " + *more;
      }
      s.request = built<64>([&](auto out) { return uds::build_read_did(dids, out); });
    } else if (verb == "write-did") {
      const std::string& id = next(verb, "a DID");
      const std::string& data = next(verb, "the data: hex bytes or text:TEXT");
      s.text += fmt::format(" {} {}", id, data);
      const auto did = static_cast<std::uint16_t>(hex_number(id, 0xFFFF, "a DID"));
      const std::vector<std::uint8_t> bytes =
          data.starts_with("text:") ? std::vector<std::uint8_t>(data.begin() + 5, data.end())
                                    : hex_bytes(data);
      s.request = built<uds::kMaxMessageBytes>(
          [&](auto out) { return uds::build_write_did(did, bytes, out); });
      if (s.request.empty()) throw std::invalid_argument("write-did: the data is too long");
    } else if (verb == "security") {
      const std::string* level = optional_next();
      int l = 1;
      if (level != nullptr) {
        const auto [p, e] = std::from_chars(level->data(), level->data() + level->size(), l);
        if (e != std::errc() || p != level->data() + level->size() || l < 1 || l > 63) {
          throw std::invalid_argument(fmt::format("security {}: expected a level 1..63", *level));
        }
        s.text += " " + *level;
      }
      s.unlock_level = static_cast<std::uint8_t>(l);
    } else if (verb == "routine") {
      const std::string& how = next(verb, "start, stop or results");
      const std::string& id = next(verb, "a routine id");
      s.text += fmt::format(" {} {}", how, id);
      const uds::RoutineControlType type = how == "start"  ? uds::RoutineControlType::start
                                           : how == "stop" ? uds::RoutineControlType::stop
                                                           : uds::RoutineControlType::results;
      if (how != "start" && how != "stop" && how != "results") {
        throw std::invalid_argument(
            fmt::format("routine {}: expected start, stop or results", how));
      }
      const auto routine = static_cast<std::uint16_t>(hex_number(id, 0xFFFF, "a routine id"));
      std::vector<std::uint8_t> option;
      if (const std::string* more = optional_next()) {
        option = hex_bytes(*more);
        s.text += " " + *more;
      }
      s.request = built<uds::kMaxMessageBytes>(
          [&](auto out) { return uds::build_routine_control(type, routine, option, out); });
    } else if (verb == "raw") {
      const std::string& bytes = next(verb, "hex bytes (e.g. 22F190)");
      s.text += " " + bytes;
      s.request = hex_bytes(bytes);
    } else if (verb == "wait") {
      const std::string& seconds = next(verb, "seconds");
      s.text += " " + seconds;
      try {
        s.wait_s = std::stod(seconds);
      } catch (const std::exception&) {
        throw std::invalid_argument(fmt::format("wait {}: expected seconds", seconds));
      }
    } else {
      throw std::invalid_argument(fmt::format(
          "\"{}\" is not a step; expected session, reset, tester-present, read-dtc, count-dtc, "
          "supported-dtc, dtc-info, clear-dtc, read-did, write-did, security, routine, raw or "
          "wait",
          verb));
    }
    steps.push_back(std::move(s));
  }
  if (steps.empty()) throw std::invalid_argument("no step; e.g. read-dtc, read-did F190");
  return steps;
}

namespace {

/// SecurityAccess `level`: requests the seed, answers key = seed XOR `mask`; the exchanges.
std::vector<UdsExchange> unlock(UdsPort& port, std::uint8_t level, std::uint32_t mask) {
  namespace uds = io::can::uds;
  std::vector<UdsExchange> out;
  std::array<std::uint8_t, 8> buffer{};
  out.push_back(port.request(std::span(buffer).first(uds::build_request_seed(level, buffer))));
  const std::vector<std::uint8_t>& seed = out.back().response;
  if (seed.size() != 6 || seed[0] != uds::sid::kSecurityAccess + 0x40) return out;
  const std::uint32_t value = (std::uint32_t{seed[2]} << 24) | (std::uint32_t{seed[3]} << 16) |
                              (std::uint32_t{seed[4]} << 8) | seed[5];
  if (value == 0) return out;  // already unlocked: a zero seed
  out.push_back(port.request(
      std::span(buffer).first(uds::build_send_key(level, uds::xor_key(value, mask), buffer))));
  return out;
}

}  // namespace

std::vector<UdsExchange> run_uds_steps(UdsPort& port, const std::vector<UdsStep>& steps,
                                       std::uint32_t key_mask) {
  std::vector<UdsExchange> out;
  for (const UdsStep& s : steps) {
    if (s.unlock_level != 0) {
      for (UdsExchange& x : unlock(port, s.unlock_level, key_mask)) out.push_back(std::move(x));
    } else if (s.request.empty()) {
      port.idle(s.wait_s);
    } else {
      out.push_back(port.request(s.request));
    }
  }
  return out;
}

}  // namespace hil::session
