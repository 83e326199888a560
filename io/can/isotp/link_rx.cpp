// The Link's receiver: single frames, reassembly of first + consecutive frames, our flow
// control (a new FC after every block of spec.block_size CFs), N_Cr.

#include <algorithm>

#include "io/can/isotp/link.hpp"

namespace hil::io::can::isotp {

void Link::receive_single(const Decoded& d, bool functional) noexcept {
  if (!functional && rx_active_) {  // a new message from the peer: the old one is abandoned
    ++counters_.rx_interrupted;
    abort_reception();
  }
  if (d.payload.size() > spec_.max_message_bytes) {
    ++counters_.overflow;
    return;
  }
  std::copy(d.payload.begin(), d.payload.end(), single_buffer_.begin());
  deliver({single_buffer_.data(), d.payload.size()}, functional);
}

void Link::receive_first(const Decoded& d, std::size_t can_dl, std::int64_t now) noexcept {
  if (rx_active_) {
    ++counters_.rx_interrupted;
    abort_reception();
  }
  if (d.pci.length > spec_.max_message_bytes) {
    ++counters_.overflow;
    fc_pending_ = true;
    fc_status_ = FlowStatus::overflow;
    return;
  }
  if (ready_ && ready_message_.data.data() == rx_buffer_.data()) {  // about to be overwritten
    ++counters_.rx_unread;
    ready_ = false;
  }
  rx_size_ = d.pci.length;
  rx_dl_ = can_dl;
  rx_received_ = std::min(d.payload.size(), rx_size_);  // FF_DLmin makes it smaller anyway
  std::copy_n(d.payload.begin(), rx_received_, rx_buffer_.begin());
  rx_sn_ = 1;
  rx_block_ = 0;
  rx_active_ = true;
  rx_deadline_ = after(now, spec_.n_cr_ns);  // restarted when poll() hands out the FC
  fc_pending_ = true;
  fc_status_ = FlowStatus::continue_to_send;
}

void Link::receive_consecutive(const Decoded& d, std::size_t can_dl, std::int64_t now) noexcept {
  if (!rx_active_) {
    ++counters_.unexpected;
    return;
  }
  const std::size_t remaining = rx_size_ - rx_received_;
  // CFs are as long as the first frame; only the last may be shorter, and must then hold
  // all that remains
  if (can_dl > rx_dl_ || (can_dl < rx_dl_ && d.payload.size() < remaining)) {
    ++counters_.malformed;
    return;
  }
  if (d.pci.sequence != rx_sn_) {
    ++counters_.wrong_sequence;
    abort_reception();
    return;
  }
  const std::size_t n = std::min(remaining, d.payload.size());
  std::copy_n(d.payload.begin(), n, rx_buffer_.begin() + static_cast<std::ptrdiff_t>(rx_received_));
  rx_received_ += n;
  rx_sn_ = static_cast<std::uint8_t>((rx_sn_ + 1U) & 0x0FU);
  if (rx_received_ == rx_size_) {
    abort_reception();  // done: nothing more to wait for, no FC still to send
    deliver({rx_buffer_.data(), rx_size_}, false);
    return;
  }
  rx_deadline_ = after(now, spec_.n_cr_ns);
  if (spec_.block_size != 0 && ++rx_block_ == spec_.block_size) {
    rx_block_ = 0;
    fc_pending_ = true;
    fc_status_ = FlowStatus::continue_to_send;
  }
}

void Link::abort_reception() noexcept {
  rx_active_ = false;
  if (fc_pending_ && fc_status_ == FlowStatus::continue_to_send) fc_pending_ = false;
}

void Link::deliver(std::span<const std::uint8_t> data, bool functional) noexcept {
  if (ready_) ++counters_.rx_unread;
  ready_ = true;
  ready_message_ = {data, functional};
  ++counters_.rx_messages;
  if (functional) ++counters_.rx_functional;
}

CanFrame Link::flow_control_frame() const noexcept {
  CanFrame f = frame_template();
  const Pci pci{.type = FrameType::flow_control,
                .flow_status = fc_status_,
                .block_size = spec_.block_size,
                .st_min = spec_.st_min};
  const std::size_t size = encode(pci, std::span(f.data).subspan(address_bytes_));
  finish(f, address_bytes_ + size);
  return f;
}

}  // namespace hil::io::can::isotp
