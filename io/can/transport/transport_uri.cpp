#include "io/can/transport/transport_uri.hpp"

#include <charconv>
#include <stdexcept>

namespace hil::io::can {
namespace {

struct Scheme {
  std::string_view prefix;  // as written before the target
  std::string_view name;
  std::string_view form;
};

constexpr Scheme kSchemes[] = {
    {"virtual:", "virtual", "virtual:NAME[?queue=FRAMES]"},
    {"cannelloni://", "cannelloni", "cannelloni://HOST:PORT[?local=ADDR:PORT&max_packet=BYTES]"},
    {"slcan:", "slcan", "slcan:/dev/TTY[?bitrate=BITS_PER_S&baud=SERIAL_BAUD]"},
    {"socketcan:", "socketcan",
     "socketcan:IFACE[?fd=0|1&filter=ID[:MASK],...&bitrate=BITS_PER_S&restart_ms=MS]"},
};

constexpr std::string_view kAllForms =
    "virtual:NAME, cannelloni://HOST:PORT, slcan:/dev/TTY or socketcan:IFACE";

[[noreturn]] void fail(std::string_view uri, std::string_view what, std::string_view form) {
  std::string message = "CAN transport URI '";
  message.append(uri).append("': ").append(what).append("; expected ").append(form);
  throw std::invalid_argument(message);
}

}  // namespace

std::string_view expected_uri_form(std::string_view scheme) noexcept {
  for (const Scheme& s : kSchemes) {
    if (s.name == scheme) return s.form;
  }
  return kAllForms;
}

TransportUri parse_transport_uri(std::string_view uri) {
  const Scheme* scheme = nullptr;
  for (const Scheme& s : kSchemes) {
    if (uri.starts_with(s.prefix)) scheme = &s;
  }
  if (scheme == nullptr) {
    const std::string_view name = uri.substr(0, uri.find(':'));
    for (const Scheme& s : kSchemes) {
      if (s.name == name) fail(uri, "it must start with '" + std::string(s.prefix) + "'", s.form);
    }
    fail(uri, "unknown transport '" + std::string(name) + "'", kAllForms);
  }

  TransportUri out{.text = std::string(uri), .scheme = std::string(scheme->name)};
  std::string_view rest = uri.substr(scheme->prefix.size());
  const std::size_t question = rest.find('?');
  out.target = std::string(rest.substr(0, question));
  if (out.target.empty())
    fail(uri, "nothing after '" + std::string(scheme->prefix) + "'", scheme->form);
  if (question == std::string_view::npos) return out;

  std::string_view query = rest.substr(question + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const std::size_t eq = pair.find('=');
    if (eq == 0 || eq == std::string_view::npos) {
      fail(uri, "query parameter '" + std::string(pair) + "' is not key=value", scheme->form);
    }
    std::string key(pair.substr(0, eq));
    for (const auto& [k, v] : out.query) {
      if (k == key) fail(uri, "query parameter '" + key + "' given twice", scheme->form);
    }
    out.query.emplace_back(std::move(key), std::string(pair.substr(eq + 1)));
  }
  return out;
}

void throw_uri_error(const TransportUri& uri, std::string_view what) {
  fail(uri.text, what, expected_uri_form(uri.scheme));
}

std::optional<std::string> UriQuery::take(std::string_view key) {
  for (std::size_t i = 0; i < uri_.query.size(); ++i) {
    if (uri_.query[i].first == key) {
      taken_[i] = true;
      return uri_.query[i].second;
    }
  }
  return std::nullopt;
}

std::optional<std::uint64_t> UriQuery::take_unsigned(std::string_view key, std::uint64_t min,
                                                     std::uint64_t max) {
  const std::optional<std::string> text = take(key);
  if (!text) return std::nullopt;
  const std::optional<std::uint64_t> value = parse_unsigned(*text);
  if (!value || *value < min || *value > max) {
    throw_uri_error(uri_, std::string(key) + "='" + *text + "' is not a number in [" +
                              std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return value;
}

std::optional<bool> UriQuery::take_bool(std::string_view key) {
  const std::optional<std::string> text = take(key);
  if (!text) return std::nullopt;
  if (*text == "1" || *text == "true" || *text == "yes" || *text == "on") return true;
  if (*text == "0" || *text == "false" || *text == "no" || *text == "off") return false;
  throw_uri_error(uri_, std::string(key) + "='" + *text + "' is not 0/1, true/false, yes/no");
}

void UriQuery::finish(std::string_view accepted_keys) const {
  for (std::size_t i = 0; i < uri_.query.size(); ++i) {
    if (!taken_[i]) {
      throw_uri_error(uri_, "unknown query parameter '" + uri_.query[i].first +
                                "' (accepted: " + std::string(accepted_keys) + ")");
    }
  }
}

std::optional<std::uint64_t> parse_unsigned(std::string_view text) noexcept {
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    text.remove_prefix(2);
    base = 16;
  }
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

std::optional<HostPort> parse_host_port(std::string_view text, std::string& why) {
  HostPort out;
  std::string_view port;
  if (text.starts_with('[')) {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos || text.substr(close + 1, 1) != ":") {
      why = "'" + std::string(text) + "' is not [IPV6]:PORT";
      return std::nullopt;
    }
    out.host = std::string(text.substr(1, close - 1));
    port = text.substr(close + 2);
  } else {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos || text.find(':') != colon) {
      why = "'" + std::string(text) + "' is not HOST:PORT (write IPv6 addresses as [ADDR]:PORT)";
      return std::nullopt;
    }
    out.host = std::string(text.substr(0, colon));
    port = text.substr(colon + 1);
  }
  const std::optional<std::uint64_t> number = parse_unsigned(port);
  if (out.host.empty() || !number || *number > 65535) {
    why = "'" + std::string(text) + "' needs a host and a port in 0..65535";
    return std::nullopt;
  }
  out.port = static_cast<std::uint16_t>(*number);
  return out;
}

}  // namespace hil::io::can
