#pragma once
// cannelloni://HOST:PORT — CAN over UDP, wire-compatible with cannelloni's packet format v2
// (cannelloni_codec.hpp), so that a SocketCAN host running `cannelloni` bridges real ECUs to
// the simulator (docs/can.md). Frames sent during one tick are batched into as few packets as
// fit CannelloniSpec::max_packet_bytes; flush() sends the last, partial one.
//
// Socket: Boost.Asio's udp::socket, opened and bound in the setup phase (the resolver takes
// host names and IPv6) and then used synchronously with non_blocking(true): receive_from and
// send_to become one recvfrom/sendto each, return would_block instead of waiting, report
// errors through error_code and allocate nothing. The datagram buffers are sized at setup.
//
// Received datagrams from any address other than HOST:PORT, larger than
// max_rx_packet_bytes, or that fail to decode are dropped and counted; sequence numbers
// count gaps, lost and late packets (u8 wraparound). Datagrams are read with recvmsg and,
// past the tick's receive budget (rx_budget.hpp), dropped in recvmmsg batches that copy only
// the header; the kernel's own drops (SO_RXQ_OVFL) are counted as kernel_overflow datagrams.
//
// Thread-safety: as Transport — one polling thread; counters() from any thread.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "io/can/transport/cannelloni_codec.hpp"
#include "io/can/transport/transport.hpp"
#include "io/can/transport/transport_spec.hpp"
#include "io/can/transport/transport_uri.hpp"

namespace hil::io::can {

class CannelloniTransport final : public Transport {
 public:
  /// Setup phase: resolves `peer`, binds `local` (default: any address, the peer's port, as
  /// cannelloni does) and makes the socket non-blocking. Throws std::runtime_error naming the
  /// URI and the cause (unresolvable host, port in use…), std::invalid_argument for options.
  CannelloniTransport(std::string uri, const HostPort& peer, const std::optional<HostPort>& local,
                      const CannelloniSpec& options);
  ~CannelloniTransport() override;
  CannelloniTransport(const CannelloniTransport&) = delete;
  CannelloniTransport& operator=(const CannelloniTransport&) = delete;
  CannelloniTransport(CannelloniTransport&&) = delete;
  CannelloniTransport& operator=(CannelloniTransport&&) = delete;

  /// Reads at most kMaxDatagramsPerReceive datagrams per call; a packet's frames that do not
  /// fit `out` (or the tick's receive budget) are handed out by the next call. Once the tick's
  /// budget is spent it drops up to kMaxShedDatagramsPerTick queued datagrams without decoding
  /// them (their header's frame count → over_budget; unknown_peer, oversized, malformed by
  /// the same rules as a decoded one). Timestamps: CLOCK_MONOTONIC when read.
  [[nodiscard]] std::size_t receive(std::span<TimedFrame> out, std::int64_t tick) noexcept override;
  /// Appends to the current packet; a full packet goes out at once, a new one starts.
  [[nodiscard]] SendStatus send(const CanFrame& frame, std::int64_t tick) noexcept override;
  /// Sends the current packet if it holds a frame.
  void flush(std::int64_t tick) noexcept override;

  /// Any thread: the bound local port (useful after binding port 0).
  [[nodiscard]] std::uint16_t local_port() const noexcept { return local_port_; }

  static constexpr std::size_t kMaxDatagramsPerReceive = 64;
  /// Datagrams read per recvmmsg when dropping over budget, and at most per tick.
  static constexpr std::size_t kShedBatch = 32;
  static constexpr std::size_t kMaxShedDatagramsPerTick = 4 * kShedBatch;

 private:
  struct Socket;  // Boost.Asio lives in the .cpp only

  [[nodiscard]] bool read_packet() noexcept;
  void shed() noexcept;
  void observe(std::uint8_t sequence) noexcept;
  void kernel_drops(std::uint32_t cumulative) noexcept;
  void transmit() noexcept;

  std::unique_ptr<Socket> socket_;
  std::size_t max_rx_packet_bytes_;
  std::vector<std::uint8_t> rx_buffer_;  // max_rx_packet_bytes + 1: filling it means oversized
  std::vector<std::uint8_t> tx_buffer_;  // max_packet_bytes
  cannelloni::PacketWriter writer_;
  cannelloni::PacketReader reader_;
  cannelloni::SequenceTracker rx_sequence_;
  std::uint8_t tx_sequence_ = 0;
  std::int64_t rx_timestamp_ns_ = 0;
  std::uint16_t local_port_ = 0;
  std::uint32_t kernel_drops_seen_ = 0;  // SO_RXQ_OVFL's count at the last datagram
};

}  // namespace hil::io::can
