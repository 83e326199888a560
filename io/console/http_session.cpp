// HTTP of the console (docs/console.md "HTTP"): the page and its assets, the JSON API, the
// operator's stop, and the WebSocket upgrade with its checks (origin, role, subprotocol,
// client cap). Every refusal is counted.
#include <fmt/format.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "io/console/console_assets.hpp"
#include "io/console/server_core.hpp"

namespace hil::io::console::detail {

namespace {

using Response = http::response<http::string_body>;

/// The first subprotocol of `offered` hilsim serves, in the client's order ("" if none).
std::string choose_subprotocol(const Request& req, Protocol& protocol) {
  const auto it = req.find(http::field::sec_websocket_protocol);
  if (it == req.end()) return {};
  std::string_view list{it->value().data(), it->value().size()};
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    std::string_view p = list.substr(0, comma);
    while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
    while (!p.empty() && p.back() == ' ') p.remove_suffix(1);
    if (p == "hilsim.console.v1") {
      protocol = Protocol::console;
      return std::string(p);
    }
    if (p == "foxglove.websocket.v1" || p == "foxglove.sdk.v1") {
      protocol = Protocol::foxglove;
      return std::string(p);
    }
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return {};
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(Core& core, tcp::socket&& socket) : core_(core), stream_(std::move(socket)) {
    beast::error_code ec;
    const tcp::endpoint peer = stream_.socket().remote_endpoint(ec);
    peer_loopback_ = !ec && is_loopback(peer.address());
    peer_ = ec ? std::string("?") : fmt::format("{}:{}", peer.address().to_string(), peer.port());
    ++core_.http_connections;
  }
  ~HttpSession() { --core_.http_connections; }
  HttpSession(const HttpSession&) = delete;
  HttpSession& operator=(const HttpSession&) = delete;

  void read_next() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(0);
    stream_.expires_after(kIdleTimeout);  // a slow header (slowloris) runs out of time
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

 private:
  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == asio::error::connection_reset) return close();
    if (ec == beast::error::timeout) {
      core_.counters.refused.fetch_add(1, std::memory_order_relaxed);
      return close();
    }
    if (ec == http::error::header_limit) {
      return refuse(http::status::request_header_fields_too_large, "request header too large");
    }
    if (ec == http::error::body_limit || ec == http::error::unexpected_body) {
      return refuse(http::status::payload_too_large, "the console takes no request bodies");
    }
    if (ec) return refuse(http::status::bad_request, fmt::format("bad request: {}", ec.message()));
    handle(parser_->release());
  }

  void handle(const Request& req) {
    const std::string_view target{req.target().data(), req.target().size()};
    const std::string_view path = target_path(target);
    if (const std::string why = origin_problem(req, core_.bound_loopback, core_.port);
        !why.empty()) {
      return refuse(http::status::forbidden, why, req.version());
    }
    const std::optional<std::string> presented = presented_token(req, target);
    const Role role = role_of(presented, core_.token, peer_loopback_, core_.bound_loopback);
    if (role == Role::none) {
      return refuse(http::status::unauthorized,
                    presented ? "wrong operator token"
                              : "this console needs the operator token (?token=… or "
                                "Authorization: Bearer …): it is bound to a non-loopback address",
                    req.version());
    }
    if (websocket::is_upgrade(req)) return upgrade(req, path, role);
    if (req.method() == http::verb::post && path == "/api/stop") {
      if (role != Role::operator_) {
        return refuse(http::status::forbidden, "stop needs the operator token", req.version());
      }
      if (core_.ending) {
        return refuse(http::status::conflict, "the run has ended", req.version());
      }
      core_.add_event({.tick = -1,
                       .level = "warn",
                       .kind = "console",
                       .text = fmt::format("stop requested by the operator at {} (HTTP)", peer_)});
      core_.stop();
      return reply(req, http::status::accepted, "application/json", R"({"stopping": true})");
    }
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      return refuse(http::status::method_not_allowed, "GET, HEAD, or POST /api/stop",
                    req.version());
    }
    if (path == "/" && presented && role == Role::operator_ &&
        query_parameter(target, "token").has_value()) {
      // the token leaves the address bar for a cookie the page cannot read; the page's own
      // parameters (tab, theme) stay
      std::string location = "/";
      const std::string_view t = target;
      const std::size_t q = t.find('?');
      for (std::string_view rest = q == std::string_view::npos ? "" : t.substr(q + 1);
           !rest.empty();) {
        const std::size_t amp = rest.find('&');
        const std::string_view p = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? "" : rest.substr(amp + 1);
        if (p.empty() || p.starts_with("token=") || p == "token") continue;
        location += location.size() == 1 ? "?" : "&";
        location += p;
      }
      Response res{http::status::found, req.version()};
      res.set(http::field::location, location);
      res.set(http::field::set_cookie,
              fmt::format("hilsim_token={}; HttpOnly; SameSite=Strict; Path=/", *presented));
      return send(std::move(res), req.keep_alive());
    }
    if (path == "/api/info") {
      return reply(req, http::status::ok, "application/json", core_.info_json(role).dump());
    }
    if (path == "/api/snapshot") {
      return reply(req, http::status::ok, "application/json", core_.snapshot_http_json());
    }
    if (std::optional<ServedAsset> asset = find_asset(path)) {
      if (!asset->etag.empty()) {
        if (const auto inm = req.find(http::field::if_none_match);
            inm != req.end() && inm->value() == asset->etag) {
          Response res{http::status::not_modified, req.version()};
          res.set(http::field::etag, asset->etag);
          return send(std::move(res), req.keep_alive());
        }
      }
      Response res{http::status::ok, req.version()};
      res.set(http::field::content_type, asset->mime);
      if (!asset->etag.empty()) res.set(http::field::etag, asset->etag);
      res.set(http::field::cache_control, "no-cache");
      res.body() = req.method() == http::verb::head ? std::string() : std::move(asset->body);
      return send(std::move(res), req.keep_alive());
    }
    reply(req, http::status::not_found, "text/plain; charset=utf-8",
          fmt::format("no such page: {}\n", path));
  }

  void upgrade(const Request& req, std::string_view path, Role role) {
    if (path != "/ws" && path != "/") {  // Foxglove users type the bare ws://host:port
      return refuse(http::status::not_found, "the WebSocket endpoint is /ws", req.version());
    }
    Protocol protocol = Protocol::console;
    const std::string subprotocol = choose_subprotocol(req, protocol);
    if (subprotocol.empty()) {
      return refuse(http::status::bad_request,
                    "no known WebSocket subprotocol: offer hilsim.console.v1 (the page), "
                    "foxglove.websocket.v1 or foxglove.sdk.v1 (Foxglove, Lichtblick)",
                    req.version());
    }
    if (core_.sessions.size() >= core_.options.max_clients) {
      return refuse(http::status::service_unavailable,
                    fmt::format("the console serves at most {} clients", core_.options.max_clients),
                    req.version());
    }
    auto session = std::make_shared<WsSession>(core_, std::move(stream_), protocol, role, peer_);
    session->accept(req, subprotocol);
  }

  void reply(const Request& req, http::status status, std::string_view type, std::string body) {
    Response res{status, req.version()};
    res.set(http::field::content_type, std::string(type));
    res.set(http::field::cache_control, "no-store");
    res.body() = req.method() == http::verb::head ? std::string() : std::move(body);
    send(std::move(res), req.keep_alive());
  }

  void refuse(http::status status, std::string_view why, unsigned version = 11) {
    core_.counters.refused.fetch_add(1, std::memory_order_relaxed);
    Response res{status, version};
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    const auto reason = http::obsolete_reason(status);
    res.body() = fmt::format("{} {}: {}\n", static_cast<unsigned>(status),
                             std::string_view(reason.data(), reason.size()), why);
    send(std::move(res), false);
  }

  void send(Response res, bool keep_alive) {
    res.set(http::field::server, "hilsim");
    res.keep_alive(keep_alive);
    res.prepare_payload();
    auto shared = std::make_shared<Response>(std::move(res));
    stream_.expires_after(kIdleTimeout);
    http::async_write(
        stream_, *shared,
        [self = shared_from_this(), shared, keep_alive](beast::error_code ec, std::size_t) {
          if (ec || !keep_alive) return self->close();
          self->read_next();
        });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  Core& core_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  std::string peer_;
  bool peer_loopback_ = false;
};

}  // namespace

void Core::accept_next() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) {
      if (http_connections >= kMaxHttpConnections) {
        counters.refused.fetch_add(1, std::memory_order_relaxed);
        beast::error_code ignored;
        socket.close(ignored);
      } else {
        socket.set_option(tcp::no_delay(true), ec);
        std::make_shared<HttpSession>(*this, std::move(socket))->read_next();
      }
    }
    accept_next();
  });
}

}  // namespace hil::io::console::detail
