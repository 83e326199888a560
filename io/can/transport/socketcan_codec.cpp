#include "io/can/transport/socketcan_codec.hpp"

#include <algorithm>

namespace hil::io::can::socketcan {

std::size_t to_kernel_frame(const CanFrame& frame, canfd_frame& out) noexcept {
  if (!is_valid(frame)) return 0;
  out = canfd_frame{};
  out.can_id = frame.id;
  if (frame.extended()) out.can_id |= CAN_EFF_FLAG;
  if (frame.remote()) out.can_id |= CAN_RTR_FLAG;
  if (frame.error()) out.can_id |= CAN_ERR_FLAG;
  out.len = frame.length;  // a remote request's DLC, as can_frame.len
  if (!frame.remote()) std::copy_n(frame.data.begin(), frame.length, out.data);
  if (!frame.fd()) return CAN_MTU;
  out.flags = static_cast<__u8>((frame.brs() ? CANFD_BRS : 0) | (frame.esi() ? CANFD_ESI : 0));
  return CANFD_MTU;
}

bool from_kernel_frame(const canfd_frame& in, std::size_t bytes, CanFrame& out) noexcept {
  if (bytes != CAN_MTU && bytes != CANFD_MTU) return false;
  CanFrame f;
  const bool error = (in.can_id & CAN_ERR_FLAG) != 0;
  const bool extended = (in.can_id & CAN_EFF_FLAG) != 0;
  f.id = in.can_id & (extended || error ? CAN_EFF_MASK : CAN_SFF_MASK);
  if (!extended && !error && (in.can_id & CAN_EFF_MASK) > CAN_SFF_MASK) return false;
  f.flags = static_cast<std::uint8_t>((extended ? kExtended : 0) |
                                      ((in.can_id & CAN_RTR_FLAG) != 0 ? kRemote : 0) |
                                      (error ? kError : 0));
  f.length = in.len;
  if (bytes == CANFD_MTU) {
    f.flags |= kFd;
    if ((in.flags & CANFD_BRS) != 0) f.flags |= kBrs;
    if ((in.flags & CANFD_ESI) != 0) f.flags |= kEsi;
  }
  if (!is_valid(f)) return false;
  if (!f.remote()) std::copy_n(in.data, f.length, f.data.begin());
  out = f;
  return true;
}

can_filter to_kernel_filter(const CanIdFilter& filter) noexcept {
  // CAN_EFF_FLAG in the mask makes the frame format part of the match; RTR is left out of the
  // mask, so data and remote frames of the id both pass.
  if (filter.extended) {
    return {.can_id = (filter.id & filter.mask & CAN_EFF_MASK) | CAN_EFF_FLAG,
            .can_mask = (filter.mask & CAN_EFF_MASK) | CAN_EFF_FLAG};
  }
  return {.can_id = filter.id & filter.mask & CAN_SFF_MASK,
          .can_mask = (filter.mask & CAN_SFF_MASK) | CAN_EFF_FLAG};
}

ErrorReport decode_error_frame(const CanFrame& frame) noexcept {
  ErrorReport r;
  if (!frame.error()) return r;
  const std::uint32_t c = frame.id;
  r.tx_timeout = (c & CAN_ERR_TX_TIMEOUT) != 0;
  r.lost_arbitration = (c & CAN_ERR_LOSTARB) != 0;
  r.controller = (c & CAN_ERR_CRTL) != 0;
  r.protocol = (c & CAN_ERR_PROT) != 0;
  r.transceiver = (c & CAN_ERR_TRX) != 0;
  r.no_ack = (c & CAN_ERR_ACK) != 0;
  r.bus_off = (c & CAN_ERR_BUSOFF) != 0;
  r.bus_error = (c & CAN_ERR_BUSERROR) != 0;
  r.restarted = (c & CAN_ERR_RESTARTED) != 0;
  if (r.controller) {
    const std::uint8_t d1 = frame.data[1];
    r.rx_overflow = (d1 & CAN_ERR_CRTL_RX_OVERFLOW) != 0;
    r.tx_overflow = (d1 & CAN_ERR_CRTL_TX_OVERFLOW) != 0;
    r.warning = (d1 & (CAN_ERR_CRTL_RX_WARNING | CAN_ERR_CRTL_TX_WARNING)) != 0;
    r.passive = (d1 & (CAN_ERR_CRTL_RX_PASSIVE | CAN_ERR_CRTL_TX_PASSIVE)) != 0;
    r.back_to_active = (d1 & CAN_ERR_CRTL_ACTIVE) != 0;
  }
  if ((c & CAN_ERR_CNT) != 0) {
    r.has_counters = true;
    r.tx_error_count = frame.data[6];
    r.rx_error_count = frame.data[7];
  }
  return r;
}

BusState next_bus_state(BusState state, const ErrorReport& report) noexcept {
  if (report.bus_off) return BusState::bus_off;
  if (report.restarted || report.back_to_active) return BusState::error_active;
  if (state == BusState::bus_off) return state;  // only a restart leaves bus-off
  if (report.passive) return BusState::error_passive;
  if (report.warning) return BusState::error_warning;
  if (report.has_counters) {
    const unsigned worst = std::max(report.tx_error_count, report.rx_error_count);
    if (worst >= CAN_ERROR_PASSIVE_THRESHOLD) return BusState::error_passive;
    if (worst >= CAN_ERROR_WARNING_THRESHOLD) return BusState::error_warning;
    return BusState::error_active;
  }
  return state;
}

}  // namespace hil::io::can::socketcan
