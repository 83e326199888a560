#pragma once
// A page client of the operator console for tests and benchmarks (docs/console.md): connects
// with `hilsim.console.v1`, subscribes to channel patterns, then counts sample frames on a
// thread of its own until the server closes or the client is destroyed.

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace hil::testing {

class ConsoleClient {
 public:
  /// Connects to 127.0.0.1:`port` and subscribes to `patterns` (JSON list); returns once the
  /// server confirmed. Throws on any failure.
  ConsoleClient(std::uint16_t port, const std::string& patterns) : ws_(io_) {
    namespace beast = boost::beast;
    namespace websocket = beast::websocket;
    using tcp = boost::asio::ip::tcp;
    boost::asio::connect(ws_.next_layer(),
                         tcp::resolver(io_).resolve("127.0.0.1", std::to_string(port)));
    ws_.set_option(websocket::stream_base::decorator([](websocket::request_type& req) {
      req.set(beast::http::field::sec_websocket_protocol, "hilsim.console.v1");
    }));
    ws_.handshake("127.0.0.1:" + std::to_string(port), "/ws");
    ws_.write(boost::asio::buffer(R"({"type":"subscribe","id":1,"channels":)" + patterns + "}"));
    for (;;) {
      beast::flat_buffer b;
      ws_.read(b);
      if (!ws_.got_text()) continue;
      const auto m = nlohmann::json::parse(beast::buffers_to_string(b.data()));
      if (m["type"] == "error") throw std::runtime_error(m["message"].get<std::string>());
      if (m["type"] == "subscribed") {
        channels = m["channels"].size();
        break;
      }
    }
    reader_ = std::thread([this] {
      beast::error_code ec;
      while (!ec) {
        beast::flat_buffer b;
        ws_.read(b, ec);
        if (!ec && !ws_.got_text()) frames.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  ~ConsoleClient() {
    boost::system::error_code ignored;
    boost::beast::get_lowest_layer(ws_).shutdown(boost::asio::ip::tcp::socket::shutdown_both,
                                                 ignored);
    reader_.join();
  }
  ConsoleClient(const ConsoleClient&) = delete;
  ConsoleClient& operator=(const ConsoleClient&) = delete;

  std::size_t channels = 0;
  std::atomic<std::uint64_t> frames{0};

 private:
  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::asio::ip::tcp::socket> ws_;
  std::thread reader_;
};

/// The port of a console URL "http://127.0.0.1:PORT/".
inline std::uint16_t console_port(const std::string& url) {
  return static_cast<std::uint16_t>(std::stoi(url.substr(url.rfind(':') + 1)));
}

}  // namespace hil::testing
