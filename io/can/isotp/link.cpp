// The Link's frame intake, poll() and frame layout; the receiver is in link_rx.cpp, the
// sender in link_tx.cpp.

#include "io/can/isotp/link.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace hil::io::can::isotp {

Link::Link(const LinkSpec& spec) : spec_(spec) {
  if (const std::string problem = validate(spec); !problem.empty()) {
    throw std::invalid_argument("ISO-TP link: " + problem);
  }
  address_bytes_ = spec.addressing == Addressing::extended ? 1 : 0;
  tx_buffer_.resize(spec.max_message_bytes);
  rx_buffer_.resize(spec.max_message_bytes);
}

std::int64_t Link::after(std::int64_t t, std::int64_t d) noexcept {
  return t > std::numeric_limits<std::int64_t>::max() - d ? std::numeric_limits<std::int64_t>::max()
                                                          : t + d;
}

void Link::expire(std::int64_t now) noexcept {
  if (tx_state_ == TxState::wait_flow_control && now >= tx_deadline_) {
    ++counters_.timeout_bs;
    abort_sending();
  } else if (tx_state_ != TxState::idle && tx_state_ != TxState::wait_flow_control &&
             now >= after(tx_due_, spec_.n_as_ns)) {
    ++counters_.timeout_as;
    abort_sending();
  }
  if (rx_active_ && now >= rx_deadline_) {
    ++counters_.timeout_cr;
    abort_reception();
  }
}

bool Link::is_ours(const CanFrame& frame, std::uint32_t id) const noexcept {
  return frame.id == id && frame.extended() == spec_.extended_ids;
}

void Link::on_frame(const CanFrame& frame, std::int64_t now_ns) noexcept {
  expire(now_ns);
  const bool physical = is_ours(frame, spec_.rx_id);
  const bool functional =
      !physical && spec_.functional_rx_id && is_ours(frame, *spec_.functional_rx_id);
  if (frame.error() || (!physical && !functional)) {
    ++counters_.ignored_other_ids;
    return;
  }
  if (frame.remote() || !is_valid(frame) || (frame.fd() && !spec_.fd)) {
    ++counters_.malformed;
    return;
  }
  if (address_bytes_ == 1 && frame.length >= 1 && frame.data[0] != spec_.rx_address) {
    ++counters_.ignored_other_address;
    return;
  }
  const Decoded d = decode(frame.payload(), address_bytes_);
  if (d.error != PciError::none && d.error != PciError::reserved_flow_status) {
    ++counters_.malformed;
    return;
  }
  if (functional && d.pci.type != FrameType::single) {  // functional: single frames only
    ++counters_.unexpected;
    return;
  }
  switch (d.pci.type) {
    case FrameType::single:
      receive_single(d, functional);
      break;
    case FrameType::first:
      receive_first(d, frame.length, now_ns);
      break;
    case FrameType::consecutive:
      receive_consecutive(d, frame.length, now_ns);
      break;
    case FrameType::flow_control:
      receive_flow_control(d, now_ns);
      break;
  }
}

std::size_t Link::poll(std::int64_t now_ns, std::span<CanFrame> out) noexcept {
  expire(now_ns);
  std::size_t n = 0;
  if (fc_pending_ && n < out.size()) {
    out[n++] = flow_control_frame();
    fc_pending_ = false;
    // N_Cr runs from our FC's transmission
    if (fc_status_ == FlowStatus::continue_to_send && rx_active_) {
      rx_deadline_ = after(now_ns, spec_.n_cr_ns);
    }
  }
  while (n < out.size() && tx_frame_due(now_ns)) out[n++] = next_tx_frame(now_ns);
  return n;
}

std::optional<Link::Received> Link::take_received() noexcept {
  if (!ready_) return std::nullopt;
  ready_ = false;
  return ready_message_;
}

CanFrame Link::frame_template() const noexcept {
  CanFrame f;
  f.id = spec_.tx_id;
  f.flags = static_cast<std::uint8_t>((spec_.extended_ids ? kExtended : 0U) |
                                      (spec_.fd ? kFd | kBrs : 0U));
  if (address_bytes_ == 1) f.data[0] = spec_.tx_address;
  return f;
}

void Link::finish(CanFrame& frame, std::size_t used) const noexcept {
  std::size_t length = used;
  std::uint8_t fill = 0xCC;  // the standard's default for CAN FD's mandatory padding
  if (spec_.padding) {
    length = spec_.tx_dl;
    fill = *spec_.padding;
  } else if (spec_.fd && used > kClassicDl) {
    length = dlc_to_length(length_to_dlc(used), true);
  }
  std::fill(frame.data.begin() + static_cast<std::ptrdiff_t>(used),
            frame.data.begin() + static_cast<std::ptrdiff_t>(length), fill);
  frame.length = static_cast<std::uint8_t>(length);
}

}  // namespace hil::io::can::isotp
