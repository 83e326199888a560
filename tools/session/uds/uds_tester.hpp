#pragma once
// hilsim as a UDS tester (`hilsim uds`, docs/diagnostics.md "The tester"): requests to an ECU
// over ISO-TP on any CAN transport — a real ECU on SocketCAN, SLCAN or cannelloni, or
// `hilsim ecu` — and its responses: the UDS client (io/can/uds/uds_client.hpp, which waits
// through "response pending" and keeps a non-default session alive) on the wall clock of its
// own thread.
//
// Thread-safety: one thread uses a tester.

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "io/can/transport/transport.hpp"
#include "io/can/uds/uds_client.hpp"

namespace hil::session {

struct UdsTesterSpec {
  std::string uri;                    ///< the CAN transport (docs/can.md "URIs")
  std::uint32_t request_id = 0x7E0;   ///< physical requests
  std::uint32_t response_id = 0x7E8;  ///< the ECU's responses
  std::uint32_t functional_id = 0x7DF;
  bool functional = false;  ///< send every request to functional_id (single frames)
  bool extended_ids = false;
  bool fd = false;
  std::uint8_t block_size = 0;    ///< our flow control
  std::uint8_t st_min = 0;        ///< raw STmin of our flow control
  double p2_s = 1.0;              ///< a response's timeout (P2 client)
  double p2_star_s = 5.0;         ///< after "response pending" (P2* client)
  double tester_present_s = 2.0;  ///< TesterPresent (3E 80) this often in a non-default session
};

/// One request and what came back.
struct UdsExchange {
  std::vector<std::uint8_t> request;
  std::vector<std::uint8_t> response;  ///< the final one; empty on timeout or no response
  int pending = 0;                     ///< "response pending" answers before it
  double elapsed_s = 0.0;
  bool timed_out = false;
};

/// Where a tester's requests go: an ECU on a transport (UdsTester), or the tester of a running
/// rig reached through its console (tools/session/uds/console_uds.hpp).
class UdsPort {
 public:
  virtual ~UdsPort() = default;
  /// Sends `request`, waits for its response.
  virtual UdsExchange request(std::span<const std::uint8_t> request) = 0;
  /// Waits `seconds`, keeping the session alive.
  virtual void idle(double seconds) = 0;
};

class UdsTester final : public UdsPort {
 public:
  /// Opens the transport (throws std::runtime_error/invalid_argument naming the URI).
  explicit UdsTester(const UdsTesterSpec& spec);
  ~UdsTester() override;
  UdsTester(const UdsTester&) = delete;
  UdsTester& operator=(const UdsTester&) = delete;

  /// Sends `request` and waits for its response (none when it suppresses it: returns after
  /// p2_s with an empty response, not timed_out).
  UdsExchange request(std::span<const std::uint8_t> request) override;
  void idle(double seconds) override;
  [[nodiscard]] const io::can::isotp::Counters& counters() const noexcept {
    return client_.counters();
  }

 private:
  using Clock = std::chrono::steady_clock;
  [[nodiscard]] std::int64_t now_ns() const noexcept;
  /// Moves frames both ways once.
  void pump();

  UdsTesterSpec spec_;
  std::unique_ptr<io::can::Transport> transport_;
  io::can::uds::UdsClient client_;
  Clock::time_point start_ = Clock::now();
  std::vector<io::can::TimedFrame> inbox_ = std::vector<io::can::TimedFrame>(64);
  std::vector<io::can::CanFrame> outbox_ = std::vector<io::can::CanFrame>(64);
};

}  // namespace hil::session
