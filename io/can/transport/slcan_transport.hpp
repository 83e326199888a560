#pragma once
// slcan:/dev/ttyACM0 — a Lawicel/SLCAN USB-serial adapter (CANable and alike) through a tty
// in raw, non-blocking mode (protocol in slcan_codec.hpp). Opening closes the CAN
// channel (C), sets the bitrate (S0..S8) and opens it (O). receive() reads what the tty holds
// and parses whole lines; send() formats into a bounded line buffer that flush() writes
// (a short write keeps the rest for the next flush, so lines are never cut).
//
// Replies: '\r' is an OK (ignored), BEL an error reply (counted in errors: expect one when
// the adapter refuses C on a closed channel), z/Z transmit acks are ignored. Command lines
// from the other side (a host such as python-can talking to us as if we were an adapter) are
// acknowledged with '\r' at the next flush and counted in peer_commands.
//
// Thread-safety: as Transport — one polling thread; counters() from any thread.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/can/transport/slcan_codec.hpp"
#include "io/can/transport/transport.hpp"
#include "io/can/transport/transport_spec.hpp"
#include "io/can/transport/unique_fd.hpp"

namespace hil::io::can {

class SlcanTransport final : public Transport {
 public:
  /// Setup phase: opens `device`, configures it (raw, 8N1, `baud`, non-blocking) and sends
  /// C, Sn, O. Throws std::runtime_error naming the URI and the cause (missing device,
  /// permission, not a tty), std::invalid_argument for an unsupported bitrate or baud.
  SlcanTransport(std::string uri, const std::string& device, const SlcanSpec& options);
  /// Setup phase: sends C (close the CAN channel) and closes the tty.
  ~SlcanTransport() override;
  SlcanTransport(const SlcanTransport&) = delete;
  SlcanTransport& operator=(const SlcanTransport&) = delete;
  SlcanTransport(SlcanTransport&&) = delete;
  SlcanTransport& operator=(SlcanTransport&&) = delete;

  /// Timestamps: CLOCK_MONOTONIC when the bytes were read. Past the tick's receive budget it
  /// parses and drops (over_budget) what it has read and up to kMaxReadsPerReceive more reads.
  [[nodiscard]] std::size_t receive(std::span<TimedFrame> out, std::int64_t tick) noexcept override;
  /// back_pressure when the line buffer is full; unsupported for error frames.
  [[nodiscard]] SendStatus send(const CanFrame& frame, std::int64_t tick) noexcept override;
  /// Writes as much of the line buffer as the tty takes now.
  void flush(std::int64_t tick) noexcept override;

  /// read() calls per receive() at most (1 KiB each): bounds the time one poll takes.
  static constexpr std::size_t kMaxReadsPerReceive = 16;

 private:
  /// Handles one event of the line assembler; returns true if it produced a frame in `out`.
  [[nodiscard]] bool handle(slcan::LineAssembler::Event event, TimedFrame& out) noexcept;
  [[nodiscard]] bool queue(std::span<const char> bytes) noexcept;
  /// One read() into rx_chunk_; false when nothing came (or an error, counted).
  [[nodiscard]] bool fill() noexcept;
  /// Past the budget: drops the frames of the bytes read and of a bounded number of reads.
  void shed() noexcept;
  /// Setup phase: writes all of `bytes`, waiting up to 1 s for the tty to take them.
  void write_setup(std::string_view bytes) const;

  UniqueFd fd_;
  slcan::LineAssembler assembler_;
  std::vector<char> rx_chunk_;  // bytes read but not yet fed to the assembler
  std::size_t rx_begin_ = 0, rx_end_ = 0;
  std::int64_t rx_timestamp_ns_ = 0;
  std::vector<char> tx_buffer_;
  std::size_t tx_size_ = 0;
};

}  // namespace hil::io::can
