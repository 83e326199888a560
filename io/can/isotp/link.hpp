#pragma once
// One ISO-TP (ISO 15765-2) connection in user space, for a UDS server inside the RT loop or
// a tester: segments messages into single / first / consecutive frames obeying the peer's
// flow control (BS, STmin, WAIT, OVFLW), reassembles the peer's frames answering with our
// own flow control, and times out N_As, N_Bs and N_Cr. Sending and receiving run
// independently (full duplex). Classic CAN and CAN FD (escape single and first frames),
// 11/29-bit identifiers, normal and extended addressing, functional single frames.
//
// The caller owns the bus and the clock: it feeds every received frame to on_frame(), takes
// what is due from poll() (a frame handed out counts as sent), and passes its own monotonic
// time in int64 nanoseconds (simulated time in the RT loop). Timers expire at exactly their
// time: an event at start + N is too late. A frame due but not taken by poll() within N_As
// aborts the sending.
//
// Receiving follows the standard's rules for unexpected frames: a CF with no reception or an
// FC with no sending waiting for one is ignored; a new SF or FF during a reception aborts it
// and starts anew; a wrong SN aborts it. Lengths are never trusted: a first frame longer than
// max_message_bytes is answered FC OVFLW, frames that break a length rule are ignored. All of
// it is counted (counters()).
//
// The constructor allocates the buffers and throws std::invalid_argument on a bad spec (setup
// phase). Everything else is noexcept and never allocates, blocks or logs: RT-safe.
// Thread-safety: none; one thread (the RT thread) owns a Link.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "io/can/can_frame.hpp"
#include "io/can/isotp/isotp_pci.hpp"
#include "io/can/isotp/link_spec.hpp"

namespace hil::io::can::isotp {

class Link {
 public:
  /// Setup: validates `spec` (std::invalid_argument naming the problem) and sizes the send
  /// and receive buffers to spec.max_message_bytes.
  explicit Link(const LinkSpec& spec);

  /// Starts sending `message` (copied) at `now_ns`; its first frame is due at once. False,
  /// counted tx_rejected, while a message is still being sent, for an empty message or one
  /// longer than max_message_bytes.
  bool send(std::span<const std::uint8_t> message, std::int64_t now_ns) noexcept;

  /// Takes one received frame. Frames on other identifiers are counted and ignored.
  void on_frame(const CanFrame& frame, std::int64_t now_ns) noexcept;

  /// Fills `out` with the frames due at `now_ns` (our flow control first, then the message
  /// being sent, paced by the peer's BS and STmin) and returns how many; they count as sent
  /// now. Also expires the timers.
  std::size_t poll(std::int64_t now_ns, std::span<CanFrame> out) noexcept;

  struct Received {
    std::span<const std::uint8_t> data;  ///< the message
    bool functional = false;             ///< arrived on functional_rx_id
  };
  /// The message completed by on_frame(), once; valid until the next on_frame(). One message
  /// is kept: a second one completing before this is called replaces it (rx_unread).
  [[nodiscard]] std::optional<Received> take_received() noexcept;

  /// A message is being sent (send() would refuse another).
  [[nodiscard]] bool busy_sending() const noexcept { return tx_state_ != TxState::idle; }
  /// A segmented message is being received.
  [[nodiscard]] bool busy_receiving() const noexcept { return rx_active_; }
  [[nodiscard]] const Counters& counters() const noexcept { return counters_; }
  [[nodiscard]] const LinkSpec& spec() const noexcept { return spec_; }

 private:
  enum class TxState : std::uint8_t { idle, single, first, wait_flow_control, consecutive };

  /// t + d, saturating (d ≥ 0): deadlines stay ordered whatever time base the caller uses.
  [[nodiscard]] static std::int64_t after(std::int64_t t, std::int64_t d) noexcept;

  void expire(std::int64_t now) noexcept;
  [[nodiscard]] bool is_ours(const CanFrame& frame, std::uint32_t id) const noexcept;
  // link_rx.cpp: the receiver
  void receive_single(const Decoded& d, bool functional) noexcept;
  void receive_first(const Decoded& d, std::size_t can_dl, std::int64_t now) noexcept;
  void receive_consecutive(const Decoded& d, std::size_t can_dl, std::int64_t now) noexcept;
  void abort_reception() noexcept;
  void deliver(std::span<const std::uint8_t> data, bool functional) noexcept;
  [[nodiscard]] CanFrame flow_control_frame() const noexcept;
  // link_tx.cpp: the sender
  void receive_flow_control(const Decoded& d, std::int64_t now) noexcept;
  [[nodiscard]] bool tx_frame_due(std::int64_t now) const noexcept;
  [[nodiscard]] CanFrame next_tx_frame(std::int64_t now) noexcept;
  [[nodiscard]] CanFrame single_frame() noexcept;
  [[nodiscard]] CanFrame first_frame() noexcept;
  [[nodiscard]] CanFrame consecutive_frame() noexcept;
  void abort_sending() noexcept;
  // frame layout
  [[nodiscard]] CanFrame frame_template() const noexcept;
  void finish(CanFrame& frame, std::size_t used) const noexcept;

  // Ordered by size (wide first) so that the state packs; sender fields start tx_, receiver
  // fields rx_ (and our flow control fc_).
  LinkSpec spec_;
  Counters counters_;
  std::vector<std::uint8_t> tx_buffer_;
  std::vector<std::uint8_t> rx_buffer_;
  Received ready_message_;         ///< the last message completed
  std::size_t address_bytes_ = 0;  ///< 1 with extended addressing

  std::size_t tx_size_ = 0;
  std::size_t tx_offset_ = 0;      ///< message bytes sent so far
  std::int64_t tx_due_ = 0;        ///< when the next frame is due (N_As runs from here)
  std::int64_t tx_deadline_ = 0;   ///< N_Bs while waiting for flow control
  std::int64_t tx_st_min_ns_ = 0;  ///< the peer's STmin
  std::size_t rx_size_ = 0;        ///< FF_DL
  std::size_t rx_received_ = 0;    ///< bytes so far
  std::size_t rx_dl_ = 0;          ///< RX_DL: the first frame's CAN_DL
  std::int64_t rx_deadline_ = 0;   ///< N_Cr
  unsigned tx_waits_ = 0;          ///< FC WAIT in a row

  std::array<std::uint8_t, kMaxFdLength> single_buffer_{};  ///< single frames land here
  TxState tx_state_ = TxState::idle;
  std::uint8_t tx_sn_ = 0;           ///< SN of the next CF
  bool tx_have_parameters_ = false;  ///< BS and STmin come from the first FC CTS
  std::uint8_t tx_block_size_ = 0;   ///< the peer's BS
  std::uint8_t tx_block_sent_ = 0;   ///< CFs since the last FC
  bool rx_active_ = false;
  std::uint8_t rx_sn_ = 0;     ///< SN expected next
  std::uint8_t rx_block_ = 0;  ///< CFs since our last FC
  bool fc_pending_ = false;    ///< our FC waits for poll()
  FlowStatus fc_status_ = FlowStatus::continue_to_send;
  bool ready_ = false;  ///< ready_message_ not yet taken
};

}  // namespace hil::io::can::isotp
