#include "io/bus/mirror/datagram_batch.hpp"

#include <cerrno>

namespace hil::io::bus::mirror {

namespace {

bool is_back_pressure(int e) noexcept { return e == EAGAIN || e == EWOULDBLOCK || e == ENOBUFS; }

}  // namespace

SendBatch::SendBatch() noexcept {
  for (std::size_t i = 0; i < kDatagramBatch; ++i) {
    iov_[i] = {buffers_[i].data(), 0};
    msgs_[i].msg_hdr.msg_iov = &iov_[i];
    msgs_[i].msg_hdr.msg_iovlen = 1;
  }
}

void SendBatch::push(std::size_t size, const SocketAddress& to) noexcept {
  iov_[count_] = {buffers_[count_].data(), size};
  msgs_[count_].msg_hdr.msg_name = const_cast<sockaddr*>(to.get());  // sendmmsg only reads it
  msgs_[count_].msg_hdr.msg_namelen = to.size;
  ++count_;
}

void SendBatch::copy_last(const SocketAddress& to) noexcept {
  // The same bytes: point at the last datagram's buffer rather than copying it
  iov_[count_] = iov_[count_ - 1];
  msgs_[count_].msg_hdr.msg_name = const_cast<sockaddr*>(to.get());
  msgs_[count_].msg_hdr.msg_namelen = to.size;
  ++count_;
}

SendResult SendBatch::flush(int fd) noexcept {
  SendResult r;
  std::size_t done = 0;
  while (done < count_) {
    const int n =
        ::sendmmsg(fd, msgs_.data() + done, static_cast<unsigned>(count_ - done), MSG_DONTWAIT);
    if (n > 0) {
      for (std::size_t i = done; i < done + static_cast<std::size_t>(n); ++i) {
        if (msgs_[i].msg_len == iov_[i].iov_len) {
          ++r.sent;
        } else {
          ++r.errors;
        }
      }
      done += static_cast<std::size_t>(n);
      continue;
    }
    // The first unsent datagram failed: count it and go on with the rest
    if (is_back_pressure(errno)) {
      ++r.dropped;
    } else {
      ++r.errors;
    }
    ++done;
  }
  count_ = 0;
  return r;
}

ReceiveBatch::ReceiveBatch() noexcept {
  for (std::size_t i = 0; i < kDatagramBatch; ++i) {
    iov_[i] = {buffers_[i].data(), buffers_[i].size()};
    msgs_[i].msg_hdr.msg_iov = &iov_[i];
    msgs_[i].msg_hdr.msg_iovlen = 1;
  }
}

std::size_t ReceiveBatch::receive(int fd) noexcept {
  for (std::size_t i = 0; i < kDatagramBatch; ++i) {
    msgs_[i].msg_hdr.msg_name = &from_[i];
    msgs_[i].msg_hdr.msg_namelen = sizeof from_[i];
    msgs_[i].msg_hdr.msg_flags = 0;
  }
  const int got = ::recvmmsg(fd, msgs_.data(), kDatagramBatch, MSG_DONTWAIT, nullptr);
  return got > 0 ? static_cast<std::size_t>(got) : 0;
}

}  // namespace hil::io::bus::mirror
