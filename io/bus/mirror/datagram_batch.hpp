#pragma once
// The mirror's batched socket calls (docs/bus.md "The UDP mirror"): datagrams queued during one
// pass of the mirror thread leave in one sendmmsg(2), and arrive through recvmmsg(2) up to
// kDatagramBatch at a time — one system call per batch instead of one per datagram. Buffers are
// sized at construction, so neither side allocates afterwards.
//
// Thread-safety: one thread (the mirror's) uses a batch; none of it is shared.

#include <sys/socket.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "io/bus/mirror/udp_socket.hpp"
#include "io/bus/mirror/wire.hpp"

namespace hil::io::bus::mirror {

inline constexpr std::size_t kDatagramBatch = 32;

/// What a flush did with the queued datagrams.
struct SendResult {
  std::uint64_t sent = 0;     ///< accepted by the kernel whole
  std::uint64_t dropped = 0;  ///< EAGAIN/ENOBUFS: the send buffer was full, not waited on
  std::uint64_t errors = 0;   ///< any other failure (EMSGSIZE, unreachable, ...)
};

class SendBatch {
 public:
  SendBatch() noexcept;
  /// A buffer for the next datagram (kMaxDatagramBytes); full() must be false.
  [[nodiscard]] std::span<std::uint8_t> next() noexcept { return buffers_[count_]; }
  /// Queues the datagram written into next()'s first `size` bytes, to `to` (which must stay
  /// valid until flush()). Then, to send the same bytes to more peers, copy_last().
  void push(std::size_t size, const SocketAddress& to) noexcept;
  /// Queues the last datagram's bytes again, to `to`.
  void copy_last(const SocketAddress& to) noexcept;
  [[nodiscard]] bool full() const noexcept { return count_ == kDatagramBatch; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  /// Sends every queued datagram from `fd` (non-blocking) and empties the batch.
  SendResult flush(int fd) noexcept;

 private:
  std::array<std::array<std::uint8_t, kMaxDatagramBytes>, kDatagramBatch> buffers_{};
  std::array<mmsghdr, kDatagramBatch> msgs_{};
  std::array<iovec, kDatagramBatch> iov_{};
  std::size_t count_ = 0;
};

class ReceiveBatch {
 public:
  /// Larger than any valid datagram: MSG_TRUNC marks one that is not.
  static constexpr std::size_t kBufferBytes = 2048;

  ReceiveBatch() noexcept;
  /// Up to kDatagramBatch datagrams waiting on `fd` (never blocks); how many (0: none).
  std::size_t receive(int fd) noexcept;
  [[nodiscard]] std::span<const std::uint8_t> bytes(std::size_t i) const noexcept {
    return {buffers_[i].data(), msgs_[i].msg_len};
  }
  [[nodiscard]] bool truncated(std::size_t i) const noexcept {
    return (msgs_[i].msg_hdr.msg_flags & MSG_TRUNC) != 0;
  }
  [[nodiscard]] const sockaddr_storage& from(std::size_t i) const noexcept { return from_[i]; }
  [[nodiscard]] socklen_t from_size(std::size_t i) const noexcept {
    return msgs_[i].msg_hdr.msg_namelen;
  }

 private:
  std::array<std::array<std::uint8_t, kBufferBytes>, kDatagramBatch> buffers_{};
  std::array<mmsghdr, kDatagramBatch> msgs_{};
  std::array<iovec, kDatagramBatch> iov_{};
  std::array<sockaddr_storage, kDatagramBatch> from_{};
};

}  // namespace hil::io::bus::mirror
