#pragma once
// The rig's UDS tester (docs/diagnostics.md "The tester in a running rig"): a UDS client
// (io/can/uds/uds_client.hpp) on the rig's diagnostics bus — the bus of the rig's
// `diagnostics` block, where the built-in ECU or a real one answers — driven by the tick.
// It serves, one after the other:
//   - requests of the API and the console (`uds` commands, runtime/commands), applied at a
//     tick and in commands.log like every command, their responses handed back with the tick
//     they completed at (take_results());
//   - every `read_dtcs_every_ms`, ReadDTCInformation 19 02 FF, whose answer sets the rig's
//     channels diag.dtc.<name>.status [-] (statusOfDTC 0–255; −1 until first read), which the
//     recording keeps and scenario `dtc` gates judge.
// Its channel diag.tester.replies [-] counts the API's requests completed (a paused run's
// console steps the loop until it grows: the reply's tick, exactly).
// Its frames are the bus's (recorded in can.log); the responses arrive as received frames, so
// a replay, fed the same frames at the same ticks, sends the same requests and reads the same
// statuses without the ECU.
//
// Thread-safety: build in the setup phase (before the table freezes); take(), submit() and the
// stage on the RT thread (noexcept, no allocation); take_results() on one non-RT thread.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "config/diagnostics_spec.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/uds/uds_client.hpp"
#include "io/can/uds/uds_codec.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/spsc_ring.hpp"
#include "rt_core/stage.hpp"

namespace hil::runtime {

/// A request of the API that completed (or never could).
struct UdsResult {
  std::uint64_t command = 0;  ///< the command's id (CommandQueue)
  std::int64_t sent_tick = 0, done_tick = 0;
  std::uint16_t size = 0;  ///< response bytes
  std::uint16_t pending = 0;
  bool timed_out = false;
  bool refused = false;  ///< ISO-TP could not send it
  std::array<std::uint8_t, io::can::uds::kMaxMessageBytes> response{};
};

class DiagTester final : public io::can::UnmappedFrameHandler, public rt::Stage {
 public:
  /// Setup: the client for `spec`'s addressing on `bus`, the status channels of its DTCs added
  /// to `table`; takes the bus's unmapped frames. `bus` and `table` must outlive it.
  DiagTester(const config::DiagnosticsSpec& spec, io::can::CanBus& bus, rt::ChannelTable& table,
             std::int64_t period_ns);
  ~DiagTester() override;
  DiagTester(const DiagTester&) = delete;
  DiagTester& operator=(const DiagTester&) = delete;

  /// RT, read phase: a frame on the response id.
  [[nodiscard]] bool take(const io::can::CanFrame& frame, std::int64_t tick) noexcept override;
  /// RT (the commands slot): queues a request of command `id`; false when the queue is full or
  /// the request cannot be a UDS request (empty, too long, functional and multi-frame).
  bool submit(std::uint64_t id, std::span<const std::uint8_t> request, bool functional) noexcept;
  /// RT, write phase (slot can_tx): ends, starts and sends.
  void run(const rt::TickContext& c) noexcept override;

  /// Completed requests of the API since the last call. One non-RT thread.
  [[nodiscard]] std::vector<UdsResult> take_results();
  /// DTC reads answered (19 02) so far. Any thread, relaxed.
  [[nodiscard]] std::uint64_t dtc_reads() const noexcept {
    return dtc_reads_.load(std::memory_order_relaxed);
  }
  /// Requests of the API and the scenario completed so far. Any thread, relaxed.
  [[nodiscard]] std::uint64_t replies() const noexcept {
    return replies_total_.load(std::memory_order_relaxed);
  }
  /// How often it reads the DTCs [s]; 0 never.
  [[nodiscard]] double read_period_s() const noexcept {
    return static_cast<double>(read_every_ticks_ * period_ns_) * 1e-9;
  }

 private:
  struct Queued {
    std::uint64_t id = 0;
    std::uint16_t size = 0;
    bool functional = false;
    std::array<std::uint8_t, io::can::uds::kMaxMessageBytes> bytes{};
  };
  /// The DTC statuses of a 59 02 response into the channels.
  void read_statuses(std::span<const std::uint8_t> response) noexcept;
  void start_next(std::int64_t tick, std::int64_t now) noexcept;

  io::can::CanBus& bus_;
  rt::ChannelTable& table_;
  io::can::uds::UdsClient client_;
  std::int64_t period_ns_;
  std::int64_t read_every_ticks_ = 0;  ///< 0: never
  std::int64_t next_read_ = 0;
  std::uint32_t response_id_ = 0;
  bool extended_ids_ = false;
  std::vector<std::uint32_t> codes_;  ///< the DTCs, as the channels
  std::vector<rt::ChannelId> status_;
  rt::ChannelId replies_{};
  double replies_count_ = 0.0;
  std::vector<Queued> queue_;  ///< a ring of requests waiting
  std::size_t queue_head_ = 0, queue_size_ = 0;
  std::uint64_t current_ = 0;  ///< the command under way (0: the DTC read)
  bool reading_ = false;       ///< the DTC read is under way
  std::int64_t current_sent_tick_ = 0;
  std::vector<io::can::CanFrame> outbox_ = std::vector<io::can::CanFrame>(64);
  rt::SpscRing<UdsResult> results_{8};
  std::atomic<std::uint64_t> dtc_reads_{0}, replies_total_{0};
};

}  // namespace hil::runtime
