#pragma once
// A UDS tester's side of one ECU (ISO 14229-1 clause 6's client; ISO 14229-2 timing): a
// request goes out over ISO-TP (io/can/isotp/link.hpp) on the physical or the functional
// request id, its response is waited for P2 (P2* after each "response pending", NRC 0x78),
// a suppressed positive response ends the wait quietly, and a non-default session is kept
// alive with TesterPresent (3E 80) when no request went out for `tester_present_ns`.
//
// Time is the caller's, in int64 nanoseconds: the wall clock of `hilsim uds`
// (tools/session/uds/uds_tester.hpp) or tick × period in the rig's loop
// (runtime/diag/diag_tester.hpp), where the same frames at the same ticks give the same
// outcomes — a replay's. The constructor allocates; everything else is noexcept and never
// allocates, blocks or logs (RT-safe). Thread-safety: none; one thread owns a client.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "io/can/can_frame.hpp"
#include "io/can/isotp/link.hpp"

namespace hil::io::can::uds {

struct ClientSpec {
  std::uint32_t request_id = 0x7E0;     ///< physical requests
  std::uint32_t response_id = 0x7E8;    ///< the ECU's responses (to functional requests too)
  std::uint32_t functional_id = 0x7DF;  ///< functional requests (single frames)
  bool extended_ids = false;
  bool fd = false;
  std::optional<std::uint8_t> padding = 0xCC;
  std::uint8_t block_size = 0;                     ///< our flow control's BS
  std::uint8_t st_min = 0;                         ///< our flow control's raw STmin
  std::int64_t p2_ns = 1'000'000'000;              ///< P2client: the first response
  std::int64_t p2_star_ns = 5'000'000'000;         ///< P2*client: after "response pending"
  std::int64_t tester_present_ns = 2'000'000'000;  ///< 3E 80 this often (0: never)
};

/// How a request ended.
struct Outcome {
  std::span<const std::uint8_t> response;  ///< the final response; empty: none
  int pending = 0;                         ///< "response pending" answers before it
  bool timed_out = false;                  ///< no response within P2 / P2*
  bool suppressed = false;                 ///< no response and none was due (SPRMIB)
  bool refused = false;                    ///< ISO-TP could not send it (busy, N_As, N_Bs…)
  std::int64_t sent_ns = 0;                ///< when request() took it
  std::int64_t done_ns = 0;                ///< when it ended
};

/// True when `request` sets the suppressPosRspMsgIndicationBit of a service with a
/// sub-function (ISO 14229-1 §7.5): no positive response will come.
[[nodiscard]] bool suppresses_positive_response(std::span<const std::uint8_t> request) noexcept;

class UdsClient {
 public:
  /// Setup: the ISO-TP links (std::invalid_argument for identifiers or a flow control ISO-TP
  /// refuses).
  explicit UdsClient(const ClientSpec& spec);
  ~UdsClient();
  UdsClient(const UdsClient&) = delete;
  UdsClient& operator=(const UdsClient&) = delete;

  /// Starts `request` (copied) at `now`; false while another is under way, or for a request
  /// that is empty or too long (functional: a single frame). A response that was not asked for
  /// is dropped.
  bool request(std::span<const std::uint8_t> request, bool functional, std::int64_t now) noexcept;
  /// Every frame received on the bus; those on other identifiers are ignored.
  void on_frame(const CanFrame& frame, std::int64_t now) noexcept;
  /// Frames due at `now` into `out` (our flow control, the request's frames, TesterPresent);
  /// also ends a wait whose time is up. Returns how many.
  std::size_t poll(std::int64_t now, std::span<CanFrame> out) noexcept;
  /// The outcome of the last request, once; its response is valid until the next request().
  [[nodiscard]] std::optional<Outcome> take_outcome() noexcept;

  /// A request is under way (sent, or waiting for its response).
  [[nodiscard]] bool busy() const noexcept { return waiting_ || done_; }
  /// The last positive DiagnosticSessionControl (or ECUReset) left a non-default session.
  [[nodiscard]] bool in_non_default_session() const noexcept { return non_default_session_; }
  /// The physical link's counters (responses, flow control).
  [[nodiscard]] const isotp::Counters& counters() const noexcept;
  [[nodiscard]] const ClientSpec& spec() const noexcept { return spec_; }

 private:
  void finish(std::int64_t now) noexcept;
  void track_session(std::span<const std::uint8_t> response) noexcept;

  ClientSpec spec_;
  std::unique_ptr<isotp::Link> physical_, functional_;
  std::vector<std::uint8_t> request_, response_;
  std::size_t response_size_ = 0;
  Outcome outcome_;
  std::uint64_t tx_before_ = 0;  ///< the link's messages sent before the request
  std::int64_t deadline_ = 0;
  std::int64_t last_request_ = 0;
  bool waiting_ = false;  ///< a request is out, its response not yet in
  bool done_ = false;     ///< outcome_ not yet taken
  bool suppressed_ = false;
  bool functional_request_ = false;
  bool non_default_session_ = false;
};

}  // namespace hil::io::can::uds
