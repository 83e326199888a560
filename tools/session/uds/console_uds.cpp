#include "tools/session/uds/console_uds.hpp"

#include <fmt/format.h>
#include <sys/socket.h>

#include <boost/asio/connect.hpp>
#include <boost/beast/core.hpp>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <stdexcept>
#include <thread>

#include "io/bus/endpoint.hpp"
#include "io/can/uds/uds_hex.hpp"

namespace hil::session {
namespace {

struct ConsoleAddress {
  std::string host, port, token;
};

ConsoleAddress parse_url(const std::string& url) {
  static const std::regex kUrl(
      R"(^(?:https?|wss?)://([^/:]+):(\d+)(/[^?]*)?(?:\?(?:.*&)?token=([^&]*))?.*$)");
  std::smatch m;
  if (!std::regex_match(url, m, kUrl)) {
    throw std::runtime_error(fmt::format(
        "--console {}: expected the URL `hilsim run --console` printed, http://HOST:PORT/", url));
  }
  return {.host = m[1], .port = m[2], .token = m[4]};
}

std::string token_file(const std::string& port) {
  const std::filesystem::path file =
      io::bus::runtime_directory() / fmt::format("console-{}.token", port);
  std::ifstream in(file);
  std::string token;
  if (!(in >> token)) {
    throw std::runtime_error(fmt::format(
        "no operator token for the console on port {} ({} unreadable): pass --token or the URL "
        "with ?token=",
        port, file.string()));
  }
  return token;
}

}  // namespace

ConsoleUds::ConsoleUds(const std::string& url, std::string token, double timeout_s, bool functional)
    : ws_(io_), functional_(functional) {
  namespace beast = boost::beast;
  namespace websocket = beast::websocket;
  using tcp = boost::asio::ip::tcp;
  const ConsoleAddress a = parse_url(url);
  if (token.empty()) token = !a.token.empty() ? a.token : token_file(a.port);
  try {
    boost::asio::connect(ws_.next_layer(), tcp::resolver(io_).resolve(a.host, a.port));
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error(fmt::format("--console {}: cannot connect ({}): is the run going?",
                                         url, e.code().message()));
  }
  // a read that waits longer than the request may take fails instead of hanging
  const timeval tv{.tv_sec = static_cast<time_t>(timeout_s + 5.0), .tv_usec = 0};
  ::setsockopt(ws_.next_layer().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ws_.set_option(websocket::stream_base::decorator([token](websocket::request_type& req) {
    req.set(beast::http::field::sec_websocket_protocol, "hilsim.console.v1, hilsim.token." + token);
  }));
  try {
    ws_.handshake(a.host + ":" + a.port, "/ws");
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error(fmt::format("--console {}: {}", url, e.code().message()));
  }
}

ConsoleUds::~ConsoleUds() {
  boost::system::error_code ignored;
  ws_.close(boost::beast::websocket::close_code::normal, ignored);
}

UdsExchange ConsoleUds::request(std::span<const std::uint8_t> request) {
  namespace beast = boost::beast;
  UdsExchange x{.request = {request.begin(), request.end()}};
  const std::int64_t req = next_req_++;
  ws_.write(boost::asio::buffer(nlohmann::json{
      {"type", "uds"},
      {"req", req},
      {"request", io::can::uds::hex_text(request)},
      {"functional", functional_}}.dump()));
  for (;;) {
    beast::flat_buffer b;
    beast::error_code ec;
    ws_.read(b, ec);
    if (ec) {
      throw std::runtime_error(
          fmt::format("the console closed or stopped answering ({})", ec.message()));
    }
    if (!ws_.got_text()) continue;
    const nlohmann::json m = nlohmann::json::parse(beast::buffers_to_string(b.data()), nullptr,
                                                   /*allow_exceptions=*/false);
    if (!m.is_object() || m.value("req", std::int64_t{-1}) != req) continue;
    const std::string type = m.value("type", "");
    if (type == "error" || (type == "ack" && !m.value("applied", true))) {
      throw std::runtime_error(fmt::format("the rig refused the request: {}",
                                           m.value("message", std::string("not applied"))));
    }
    if (type != "uds") continue;
    last_tick_ = m.value("tick", std::int64_t{-1});
    x.response = io::can::uds::parse_hex_bytes(m.value("response", ""));
    x.pending = m.value("pending", 0);
    x.timed_out = m.value("timed_out", false) || m.value("refused", false);
    return x;
  }
}

void ConsoleUds::idle(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

}  // namespace hil::session
