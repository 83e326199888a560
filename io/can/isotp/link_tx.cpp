// The Link's sender: single or first frame, then consecutive frames paced by the peer's flow
// control (BS and STmin of its first FC CTS, the standard's static parameters), FC WAIT up to
// max_wait_frames in a row, FC OVFLW; N_Bs.

#include <algorithm>

#include "io/can/isotp/link.hpp"

namespace hil::io::can::isotp {

bool Link::send(std::span<const std::uint8_t> message, std::int64_t now_ns) noexcept {
  expire(now_ns);
  if (tx_state_ != TxState::idle || message.empty() || message.size() > spec_.max_message_bytes) {
    ++counters_.tx_rejected;
    return false;
  }
  std::copy(message.begin(), message.end(), tx_buffer_.begin());
  tx_size_ = message.size();
  tx_offset_ = 0;
  tx_due_ = now_ns;
  tx_state_ =
      tx_size_ <= max_single_length(spec_.tx_dl, address_bytes_) ? TxState::single : TxState::first;
  return true;
}

void Link::receive_flow_control(const Decoded& d, std::int64_t now) noexcept {
  if (tx_state_ != TxState::wait_flow_control) {
    ++counters_.unexpected;
    return;
  }
  if (d.error == PciError::reserved_flow_status) {  // N_INVALID_FS
    ++counters_.invalid_flow_status;
    abort_sending();
    return;
  }
  switch (d.pci.flow_status) {
    case FlowStatus::continue_to_send:
      if (!tx_have_parameters_) {
        tx_have_parameters_ = true;
        tx_block_size_ = d.pci.block_size;
        // reserved values count as 127 ms; plus our margin (link_spec.hpp)
        tx_st_min_ns_ = st_min_ns(d.pci.st_min) + spec_.st_min_margin_ns;
      }
      tx_block_sent_ = 0;
      tx_waits_ = 0;
      tx_state_ = TxState::consecutive;
      tx_due_ = now;  // STmin separates CFs; the first after an FC may go at once
      break;
    case FlowStatus::wait:
      if (++tx_waits_ > spec_.max_wait_frames) {
        ++counters_.wait_limit;
        abort_sending();
      } else {
        tx_deadline_ = after(now, spec_.n_bs_ns);
      }
      break;
    case FlowStatus::overflow:
      ++counters_.peer_overflow;
      abort_sending();
      break;
  }
}

bool Link::tx_frame_due(std::int64_t now) const noexcept {
  return (tx_state_ == TxState::single || tx_state_ == TxState::first ||
          tx_state_ == TxState::consecutive) &&
         tx_due_ <= now;
}

CanFrame Link::next_tx_frame(std::int64_t now) noexcept {
  switch (tx_state_) {
    case TxState::single: {
      const CanFrame f = single_frame();
      tx_state_ = TxState::idle;
      ++counters_.tx_messages;
      return f;
    }
    case TxState::first: {
      const CanFrame f = first_frame();
      tx_state_ = TxState::wait_flow_control;
      tx_deadline_ = after(now, spec_.n_bs_ns);
      tx_have_parameters_ = false;
      tx_waits_ = 0;
      return f;
    }
    default: {  // consecutive (tx_frame_due() allows nothing else)
      const CanFrame f = consecutive_frame();
      if (tx_offset_ == tx_size_) {
        tx_state_ = TxState::idle;
        ++counters_.tx_messages;
      } else if (tx_block_size_ != 0 && ++tx_block_sent_ == tx_block_size_) {
        tx_state_ = TxState::wait_flow_control;
        tx_deadline_ = after(now, spec_.n_bs_ns);
        tx_waits_ = 0;
      } else {
        tx_due_ = after(now, tx_st_min_ns_);
      }
      return f;
    }
  }
}

CanFrame Link::single_frame() noexcept {
  CanFrame f = frame_template();
  // The escape form exactly when the frame will be longer than 8 bytes
  const bool escape =
      spec_.padding ? spec_.tx_dl > kClassicDl : address_bytes_ + 1 + tx_size_ > kClassicDl;
  const Pci pci{
      .type = FrameType::single, .length = static_cast<std::uint32_t>(tx_size_), .escape = escape};
  const std::size_t at = address_bytes_ + encode(pci, std::span(f.data).subspan(address_bytes_));
  std::copy_n(tx_buffer_.begin(), tx_size_, f.data.begin() + static_cast<std::ptrdiff_t>(at));
  finish(f, at + tx_size_);
  return f;
}

CanFrame Link::first_frame() noexcept {
  CanFrame f = frame_template();
  const Pci pci{.type = FrameType::first,
                .length = static_cast<std::uint32_t>(tx_size_),
                .escape = tx_size_ > kMaxShortFirstLength};
  const std::size_t at = address_bytes_ + encode(pci, std::span(f.data).subspan(address_bytes_));
  const std::size_t n = std::min<std::size_t>(spec_.tx_dl - at, tx_size_);
  std::copy_n(tx_buffer_.begin(), n, f.data.begin() + static_cast<std::ptrdiff_t>(at));
  finish(f, at + n);
  tx_offset_ = n;
  tx_sn_ = 1;
  return f;
}

CanFrame Link::consecutive_frame() noexcept {
  CanFrame f = frame_template();
  const Pci pci{.type = FrameType::consecutive, .sequence = tx_sn_};
  const std::size_t at = address_bytes_ + encode(pci, std::span(f.data).subspan(address_bytes_));
  const std::size_t n = std::min<std::size_t>(spec_.tx_dl - at, tx_size_ - tx_offset_);
  std::copy_n(tx_buffer_.begin() + static_cast<std::ptrdiff_t>(tx_offset_), n,
              f.data.begin() + static_cast<std::ptrdiff_t>(at));
  finish(f, at + n);
  tx_offset_ += n;
  tx_sn_ = static_cast<std::uint8_t>((tx_sn_ + 1U) & 0x0FU);
  return f;
}

void Link::abort_sending() noexcept { tx_state_ = TxState::idle; }

}  // namespace hil::io::can::isotp
