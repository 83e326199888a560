#pragma once
// Who may do what on the console (docs/console.md "Access"): the operator token, where a
// request presents it, the loopback rule, and the Origin/Host checks that keep other web
// pages (and DNS rebinding) away from the rig. Pure functions; any thread.

#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/ip/address.hpp>
#include <boost/beast/http/fields.hpp>

namespace hil::io::console {

enum class Role { none, viewer, operator_ };  // NOLINT(readability-identifier-naming): a keyword

[[nodiscard]] std::string_view to_string(Role r) noexcept;

/// 128 random bits as 32 lower-case hex digits (getrandom).
[[nodiscard]] std::string make_token();

/// The token a request presents: `Authorization: Bearer T`, cookie `hilsim_token=T`,
/// `?token=T` in `target`, or a `Sec-WebSocket-Protocol` entry `hilsim.token.T`.
[[nodiscard]] std::optional<std::string> presented_token(const boost::beast::http::fields& h,
                                                         std::string_view target);

/// Equal in constant time (for equal lengths).
[[nodiscard]] bool token_matches(std::string_view presented, std::string_view token) noexcept;

/// The role of a request: operator with the right token; viewer from a loopback peer when
/// the console is bound to loopback; none otherwise (a wrong token is none as well).
[[nodiscard]] Role role_of(const std::optional<std::string>& presented, std::string_view token,
                           bool peer_loopback, bool bound_loopback) noexcept;

/// Why a request is refused for where it comes from ("" when it is fine): an `Origin` that
/// is not `http://` + its `Host`, or on a loopback bind a `Host` that is not a loopback name
/// or address with the console's port.
[[nodiscard]] std::string origin_problem(const boost::beast::http::fields& h, bool bound_loopback,
                                         unsigned short port);

/// The query parameter `name` of a request target ("/?token=abc&x=1"), percent-decoded.
[[nodiscard]] std::optional<std::string> query_parameter(std::string_view target,
                                                         std::string_view name);
/// The target without its query ("/api/info?x" → "/api/info").
[[nodiscard]] std::string_view target_path(std::string_view target) noexcept;

[[nodiscard]] bool is_loopback(const boost::asio::ip::address& a) noexcept;

}  // namespace hil::io::console
