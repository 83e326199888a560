#include "io/console/console_auth.hpp"

#include <fmt/format.h>
#include <sys/random.h>

#include <array>
#include <stdexcept>

namespace hil::io::console {

namespace http = boost::beast::http;

std::string_view to_string(Role r) noexcept {
  switch (r) {
    case Role::operator_:
      return "operator";
    case Role::viewer:
      return "viewer";
    case Role::none:
      break;
  }
  return "none";
}

std::string make_token() {
  std::array<unsigned char, 16> bytes{};
  if (getrandom(bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
    throw std::runtime_error("console: no random bytes for the operator token");
  }
  std::string out;
  for (const unsigned char b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

namespace {

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// Calls `f` with each `sep`-separated, trimmed item of `list` until it returns true.
template <typename F>
bool any_item(std::string_view list, char sep, F&& f) {
  while (!list.empty()) {
    const std::size_t end = list.find(sep);
    if (f(trim(list.substr(0, end)))) return true;
    if (end == std::string_view::npos) break;
    list.remove_prefix(end + 1);
  }
  return false;
}

int hex_digit(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decoded(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = hex_digit(s[i + 1]);
      const int lo = hex_digit(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i] == '+' ? ' ' : s[i];
  }
  return out;
}

bool is_loopback_host(std::string_view host) noexcept {
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host.starts_with("127.");
}

}  // namespace

std::string_view target_path(std::string_view target) noexcept {
  return target.substr(0, target.find('?'));
}

std::optional<std::string> query_parameter(std::string_view target, std::string_view name) {
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return std::nullopt;
  std::optional<std::string> found;
  any_item(target.substr(q + 1), '&', [&](std::string_view item) {
    const std::size_t eq = item.find('=');
    if (item.substr(0, eq) != name) return false;
    found = eq == std::string_view::npos ? std::string() : percent_decoded(item.substr(eq + 1));
    return true;
  });
  return found;
}

std::optional<std::string> presented_token(const http::fields& h, std::string_view target) {
  std::optional<std::string> found;
  if (const auto it = h.find(http::field::authorization); it != h.end()) {
    const std::string_view v = trim({it->value().data(), it->value().size()});
    if (v.starts_with("Bearer ")) return std::string(trim(v.substr(7)));
  }
  for (auto it = h.find(http::field::cookie); it != h.end() && it->name() == http::field::cookie;
       ++it) {
    any_item({it->value().data(), it->value().size()}, ';', [&](std::string_view c) {
      if (!c.starts_with("hilsim_token=")) return false;
      found = std::string(c.substr(13));
      return true;
    });
    if (found) return found;
  }
  if (auto q = query_parameter(target, "token")) return q;
  if (const auto it = h.find(http::field::sec_websocket_protocol); it != h.end()) {
    any_item({it->value().data(), it->value().size()}, ',', [&](std::string_view p) {
      if (!p.starts_with("hilsim.token.")) return false;
      found = std::string(p.substr(13));
      return true;
    });
  }
  return found;
}

bool token_matches(std::string_view presented, std::string_view token) noexcept {
  if (presented.size() != token.size() || token.empty()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < token.size(); ++i) {
    diff |= static_cast<unsigned char>(presented[i] ^ token[i]);
  }
  return diff == 0;
}

Role role_of(const std::optional<std::string>& presented, std::string_view token,
             bool peer_loopback, bool bound_loopback) noexcept {
  if (presented) return token_matches(*presented, token) ? Role::operator_ : Role::none;
  return peer_loopback && bound_loopback ? Role::viewer : Role::none;
}

std::string origin_problem(const http::fields& h, bool bound_loopback, unsigned short port) {
  const auto host_it = h.find(http::field::host);
  const std::string_view host =
      host_it == h.end() ? std::string_view()
                         : std::string_view(host_it->value().data(), host_it->value().size());
  if (bound_loopback) {
    const std::size_t colon = host.rfind(':');
    const bool bracketed_v6_without_port = host.ends_with(']');
    const std::string_view name =
        colon == std::string_view::npos || bracketed_v6_without_port ? host : host.substr(0, colon);
    const std::string_view host_port = colon == std::string_view::npos || bracketed_v6_without_port
                                           ? std::string_view("80")
                                           : host.substr(colon + 1);
    if (!is_loopback_host(name) || host_port != std::to_string(port)) {
      return fmt::format("Host '{}' is not this console (a loopback name with port {})", host,
                         port);
    }
  }
  if (const auto it = h.find(http::field::origin); it != h.end()) {
    const std::string_view origin{it->value().data(), it->value().size()};
    if (origin != fmt::format("http://{}", host)) {
      return fmt::format("Origin '{}' is not this console's (http://{})", origin, host);
    }
  }
  return {};
}

bool is_loopback(const boost::asio::ip::address& a) noexcept { return a.is_loopback(); }

}  // namespace hil::io::console
