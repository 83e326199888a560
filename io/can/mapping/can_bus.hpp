#pragma once
// One mapped CAN bus in the loop: in the read phase it drains the transport, checks each frame
// (length, FD flag, alive counter, CRC, AUTOSAR E2E), decodes the mapped signals into input
// channels, and watches each received message's timeout (status channel up, hold, then the
// safe values); in the write phase it encodes the due messages from channels (alive counter,
// CRC, E2E) as their send plans say — cyclic, on change, if active — aligned to ticks, and
// flushes the transport. docs/can.md "Mapping" and "Rest-bus simulation".
//
// Channels it adds: can.<bus>.<message>.timeout [-] per received message (1 while missing),
// can.<bus>.<message>.e2e [-] per received E2E message (the last check's status: 0 OK,
// 1 REPEATED, 2 WRONG_SEQUENCE, 3 ERROR, 4 NODATA), can.<bus>.<message>.<signal> per free
// signal of a simulated message (input) and per signal of a device-under-test message that
// no `signals` map (output), and can.<bus>.{rx_frames, tx_frames, rx_dropped, tx_dropped} [-].
//
// Thread-safety: build in the setup phase; read()/write() on the RT thread only (no
// allocation, no exceptions, no blocking); message_counters() from any thread (relaxed
// atomics: each value is exact, a set of them is not a consistent snapshot).

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/mapping/can_bus_spec.hpp"
#include "io/can/mapping/last_payload.hpp"
#include "io/can/mapping/message_fault_hook.hpp"
#include "io/can/transport/transport.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/spsc_ring.hpp"

namespace hil::io::can {

/// A frame as the recorder sees it: the tick that applied (rx) or produced (tx) it.
struct RecordedFrame {
  std::int64_t tick = 0;
  std::uint8_t bus = 0;  ///< index of the bus in the rig
  bool transmitted = false;
  CanFrame frame;
};
using FrameTap = rt::SpscRing<RecordedFrame>;

/// Per message, for the console and the run summary.
struct MessageCounters {
  std::atomic<std::uint64_t> frames{0};
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> errors{0};  ///< rx: bad length/flags/counter/CRC; tx: send failed
  std::atomic<std::uint64_t> length_errors{0};   ///< rx: wrong length or frame format
  std::atomic<std::uint64_t> crc_errors{0};      ///< rx: CRC mismatch
  std::atomic<std::uint64_t> counter_errors{0};  ///< rx: alive counter repeated (frozen)
  std::atomic<std::uint64_t> drops{0};           ///< rx: frames refused; tx: frames not sent
  std::atomic<std::uint64_t> counter_jumps{0};
  std::atomic<std::uint64_t> wrong_sequence{0};  ///< rx: E2E WRONG_SEQUENCE (dropped)
  std::atomic<std::uint64_t> no_data{0};         ///< rx: E2E NODATA (a cycle without a frame)
  std::atomic<std::uint64_t> saturated{0};       ///< tx: values clamped to the signal's range
  std::atomic<std::uint64_t> timeouts{0};        ///< rx: times the message went missing
  std::atomic<std::int64_t> last_tick{-1};       ///< tick of the last frame
  LastPayload last_payload;                      ///< bytes of the last frame
};

/// The name of a per-message channel of bus `bus`: "can.<bus>.<message>.<leaf>", the message in
/// snake case ("ABS_WheelSpeeds", "timeout" → "can.body.abs_wheel_speeds.timeout").
[[nodiscard]] std::string message_channel(std::string_view bus, std::string_view message,
                                          std::string_view leaf);
/// The channel of a signal of a simulated or device-under-test message: the signal in snake
/// case as the leaf.
[[nodiscard]] std::string signal_channel(std::string_view bus, std::string_view message,
                                         std::string_view signal);

/// Frames a bus's mapping does not know (ISO-TP diagnostics, …), handed over in the read
/// phase. RT: noexcept, no allocation.
class UnmappedFrameHandler {
 public:
  virtual ~UnmappedFrameHandler() = default;
  /// True when the handler took the frame (it is then not counted as an unknown id).
  [[nodiscard]] virtual bool take(const CanFrame& frame, std::int64_t tick) noexcept = 0;
};

class CanBus {
 public:
  /// Setup phase: plans the bus (plan_bus, unless `given` is planned already), opens the
  /// transport (may throw std::runtime_error/invalid_argument naming the URI) unless
  /// `transport` is given, resolves every name against the DBC and `table` (which must not be
  /// frozen yet: the bus adds its channels) and sizes every buffer. Returns nullptr and fills
  /// `problems` when the mapping has errors. `period_s` is the executive's period; `index` the
  /// bus's number in the rig (for the frame tap).
  [[nodiscard]] static std::unique_ptr<CanBus> create(const CanBusSpec& given,
                                                      rt::ChannelTable& table, double period_s,
                                                      std::uint8_t index,
                                                      std::vector<MappingProblem>& problems,
                                                      std::unique_ptr<Transport> transport = {});

  /// RT, read phase of tick `tick`.
  void read(std::int64_t tick, rt::ChannelTable& table) noexcept;
  /// RT, write phase of tick `tick`.
  void write(std::int64_t tick, rt::ChannelTable& table) noexcept;

  /// Every frame received and sent goes to `tap` too (setup phase; nullptr: none). Sent
  /// frames as they went out (faults applied; dropped ones absent).
  void set_tap(FrameTap* tap) noexcept { tap_ = tap; }
  /// Setup phase: faults of transmitted (`tx`) or received message `index` (spec order).
  void set_fault_hook(bool tx, std::size_t index, MessageFaultHook* hook) noexcept;
  /// Setup phase: frames of ids the mapping does not receive go to `handler` first.
  void set_unmapped_handler(UnmappedFrameHandler* handler) noexcept { unmapped_ = handler; }
  /// RT, write phase: sends a frame the mapping does not make (ISO-TP, …): in the frame tap
  /// and the bus's counts like the mapping's own; nothing while the bus is silenced.
  SendStatus send_unmapped(const CanFrame& frame, std::int64_t tick) noexcept;
  /// Setup phase: while `*silent` is true the bus sends nothing (nullptr: never).
  void set_silence(const bool* silent) noexcept { silent_ = silent; }
  /// Setup phase (or RT, for a command's fault): while `*silent` is true the messages sent
  /// for simulated node `node` (node_index()) are not sent.
  void set_node_silence(std::int32_t node, const bool* silent) noexcept;
  [[nodiscard]] std::size_t node_count() const noexcept { return nodes_.size(); }
  /// The index of a node of the DBC, or −1.
  [[nodiscard]] std::int32_t node_index(std::string_view node) const noexcept;

  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] const Transport& transport() const noexcept { return *transport_; }
  /// Any thread: counters of received message i (spec order) and transmitted message i.
  [[nodiscard]] const MessageCounters& rx_counters(std::size_t i) const noexcept;
  [[nodiscard]] const MessageCounters& tx_counters(std::size_t i) const noexcept;
  /// The DBC name of received message i, and whether the device under test sends it.
  [[nodiscard]] const std::string& rx_name(std::size_t i) const noexcept;
  [[nodiscard]] bool rx_from_dut(std::size_t i) const noexcept;
  [[nodiscard]] std::size_t rx_count() const noexcept { return rx_.size(); }
  [[nodiscard]] std::size_t tx_count() const noexcept { return tx_.size(); }
  /// Any thread: frames whose id is not mapped for reception.
  [[nodiscard]] std::uint64_t unknown_frames() const noexcept {
    return unknown_.load(std::memory_order_relaxed);
  }
  /// Executive's thread, or after the run: every frame sent and every send that failed, the
  /// mapping's and send_unmapped()'s (radar object lists, UDS) alike.
  [[nodiscard]] std::uint64_t tx_total() const noexcept { return tx_total_; }
  [[nodiscard]] std::uint64_t tx_failed_total() const noexcept { return tx_drop_total_; }

  ~CanBus();
  CanBus(const CanBus&) = delete;
  CanBus& operator=(const CanBus&) = delete;
  CanBus(CanBus&&) = delete;
  CanBus& operator=(CanBus&&) = delete;

 private:
  struct Rx;
  struct Tx;
  CanBus() = default;

  void receive(const CanFrame& frame, std::int64_t tick, rt::ChannelTable& table) noexcept;
  void watch_timeouts(std::int64_t tick, rt::ChannelTable& table) noexcept;
  [[nodiscard]] static bool due(Tx& tx, std::int64_t tick, const rt::ChannelTable& table) noexcept;
  void send(Tx& tx, std::int64_t tick) noexcept;
  void transmit(Tx& tx, const CanFrame& frame, std::int64_t tick) noexcept;
  void take(Rx& rx, const CanFrame& frame, std::int64_t tick, rt::ChannelTable& table) noexcept;
  [[nodiscard]] bool check_e2e(Rx& rx, std::span<const std::uint8_t> payload,
                               rt::ChannelTable& table) noexcept;
  void publish_counters(rt::ChannelTable& table) const noexcept;

  std::string name_;
  std::uint8_t index_ = 0;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<dbc::CompiledDatabase> db_;
  std::vector<std::unique_ptr<Rx>> rx_;
  std::vector<std::unique_ptr<Tx>> tx_;
  std::vector<std::int32_t> rx_of_message_;  ///< database message index → rx_ index or −1
  std::vector<std::string> nodes_;           ///< the DBC's node names
  std::vector<TimedFrame> inbox_;
  FrameTap* tap_ = nullptr;
  const bool* silent_ = nullptr;
  UnmappedFrameHandler* unmapped_ = nullptr;
  std::atomic<std::uint64_t> unknown_{0};
  rt::ChannelId rx_frames_{}, tx_frames_{}, rx_dropped_{}, tx_dropped_{};
  std::uint64_t rx_total_ = 0, tx_total_ = 0, rx_drop_total_ = 0, tx_drop_total_ = 0;
};

}  // namespace hil::io::can
