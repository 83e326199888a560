#pragma once
// `hilsim uds --console URL`: the steps of `hilsim uds` sent to a running rig's UDS tester
// through its console (docs/api.md "uds"), so each request is applied at a tick, written to
// the run's commands.log and sent on the rig's diagnostics bus — to the built-in ECU or a
// real one — and the run replays it.
//
// Thread-safety: one thread uses a ConsoleUds.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdint>
#include <string>

#include "tools/session/uds/uds_tester.hpp"

namespace hil::session {

class ConsoleUds final : public UdsPort {
 public:
  /// Connects to the console at `url` ("http://HOST:PORT/…", as `hilsim run --console` prints
  /// it) with the operator `token` ("": the one in hilsim's runtime directory for that port,
  /// or ?token= in the URL); `functional`: every request to the functional id. Throws
  /// std::runtime_error saying what failed.
  ConsoleUds(const std::string& url, std::string token, double timeout_s, bool functional);
  ~ConsoleUds() override;
  ConsoleUds(const ConsoleUds&) = delete;
  ConsoleUds& operator=(const ConsoleUds&) = delete;

  UdsExchange request(std::span<const std::uint8_t> request) override;
  /// The rig's tester keeps a session alive itself: only waits.
  void idle(double seconds) override;
  /// The tick of the last reply (where the run applied or completed it).
  [[nodiscard]] std::int64_t last_tick() const noexcept { return last_tick_; }

 private:
  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::asio::ip::tcp::socket> ws_;
  std::int64_t next_req_ = 1;
  std::int64_t last_tick_ = -1;
  bool functional_ = false;
};

}  // namespace hil::session
