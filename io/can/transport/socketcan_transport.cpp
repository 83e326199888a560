#include "io/can/transport/socketcan_transport.hpp"

#include <linux/can/raw.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "io/can/transport/socketcan_codec.hpp"

namespace hil::io::can {
namespace {

std::string errno_text(int error) { return std::system_category().message(error); }

template <class T>
void set_option(int fd, int level, int option, const T* value, std::size_t size,
                const std::string& who, const char* what) {
  if (::setsockopt(fd, level, option, value, static_cast<socklen_t>(size)) != 0) {
    throw std::runtime_error(who + ": cannot set " + what + ": " + errno_text(errno));
  }
}

std::int64_t clock_ns(clockid_t clock) noexcept {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

std::string no_socketcan_message(std::string_view uri, std::string_view cause) {
  std::string m(uri);
  m.append(": this kernel has no SocketCAN support (socket(PF_CAN, SOCK_RAW, CAN_RAW) failed: ")
      .append(cause)
      .append(
          "). Load it with `modprobe can can_raw`; for a virtual CAN interface also "
          "`modprobe vcan; ip link add dev vcan0 type vcan; ip link set up vcan0`. Without "
          "kernel CAN, use cannelloni://HOST:PORT (UDP; bridge real ECUs with cannelloni on a "
          "SocketCAN host), slcan:/dev/ttyACM0 (USB-serial SLCAN adapter) or virtual:NAME "
          "(in-process bus)");
  return m;
}

SocketCanTransport::SocketCanTransport(std::string uri, const std::string& interface,
                                       const SocketCanSpec& options)
    : Transport(std::move(uri)),
      control_(interface),
      deliver_error_frames_(options.deliver_error_frames) {
  const std::string self(name());
  socket_.reset(::socket(PF_CAN, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, CAN_RAW));
  if (!socket_) {
    const int error = errno;
    if (error == EAFNOSUPPORT || error == EPROTONOSUPPORT) {
      throw std::runtime_error(no_socketcan_message(self, errno_text(error)));
    }
    throw std::runtime_error(self + ": cannot open a CAN_RAW socket: " + errno_text(error));
  }
  const int fd = socket_.get();
  ifreq ifr{};
  if (interface.empty() || interface.size() >= sizeof ifr.ifr_name) {
    throw std::runtime_error(self + ": '" + interface + "' is not an interface name");
  }
  std::strncpy(ifr.ifr_name, interface.c_str(), sizeof ifr.ifr_name - 1);
  const unsigned index = ::if_nametoindex(interface.c_str());
  if (index == 0) {
    throw std::runtime_error(self + ": no network interface '" + interface +
                             "' (list them with `ip -details link show type can`; a virtual "
                             "one: `ip link add dev vcan0 type vcan; ip link set up vcan0`)");
  }
  if (options.bitrate) control_.set_bitrate(*options.bitrate);
  if (options.restart_ms) control_.set_restart_ms(*options.restart_ms);

  if (::ioctl(fd, SIOCGIFMTU, &ifr) != 0) {
    throw std::runtime_error(self + ": cannot read the MTU of " + interface + ": " +
                             errno_text(errno));
  }
  fd_enabled_ = options.fd && ifr.ifr_mtu == static_cast<int>(CANFD_MTU);
  const int on = 1;
  if (fd_enabled_) {
    set_option(fd, SOL_CAN_RAW, CAN_RAW_FD_FRAMES, &on, sizeof on, self, "CAN_RAW_FD_FRAMES");
  }
  if (!options.filters.empty()) {
    std::vector<can_filter> filters;
    for (const CanIdFilter& f : options.filters) filters.push_back(socketcan::to_kernel_filter(f));
    set_option(fd, SOL_CAN_RAW, CAN_RAW_FILTER, filters.data(), filters.size() * sizeof(can_filter),
               self, "CAN_RAW_FILTER");
  }
  const can_err_mask_t errors = socketcan::kErrorMask;
  set_option(fd, SOL_CAN_RAW, CAN_RAW_ERR_FILTER, &errors, sizeof errors, self,
             "CAN_RAW_ERR_FILTER");
  set_option(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on, self, "SO_TIMESTAMPNS");
  set_option(fd, SOL_SOCKET, SO_RXQ_OVFL, &on, sizeof on, self, "SO_RXQ_OVFL");

  sockaddr_can address{};
  address.can_family = AF_CAN;
  address.can_ifindex = static_cast<int>(index);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    throw std::runtime_error(self + ": cannot bind to " + interface + ": " + errno_text(errno));
  }
  try {
    counters_.bus_state.store(control_.state(), std::memory_order_relaxed);
  } catch (const std::runtime_error&) {
    // vcan and some drivers report no state: it stays unknown until an error frame says more.
  }
}

void SocketCanTransport::on_error_frame(const CanFrame& frame) noexcept {
  TransportCounters::add(counters_.error_frames);
  const socketcan::ErrorReport report = socketcan::decode_error_frame(frame);
  const BusState before = counters_.bus_state.load(std::memory_order_relaxed);
  const BusState after = socketcan::next_bus_state(before, report);
  if (report.restarted) TransportCounters::add(counters_.restarts);
  if (after != before) {
    if (after == BusState::bus_off) TransportCounters::add(counters_.bus_off_events);
    if (after == BusState::error_passive) TransportCounters::add(counters_.error_passive_events);
    if (after == BusState::error_warning) TransportCounters::add(counters_.error_warning_events);
    counters_.bus_state.store(after, std::memory_order_relaxed);  // a statistic: relaxed
  }
}

std::size_t SocketCanTransport::receive(std::span<TimedFrame> out, std::int64_t tick) noexcept {
  // Kernel timestamps are CLOCK_REALTIME; one offset per call moves them to CLOCK_MONOTONIC.
  const std::int64_t realtime_to_monotonic = clock_ns(CLOCK_MONOTONIC) - clock_ns(CLOCK_REALTIME);
  out = out.first(std::min(out.size(), budget_.allowance(tick)));
  std::size_t n = 0;
  std::uint64_t bytes = 0;
  std::size_t reads = 0;
  while (n < out.size() && reads++ < out.size() + kMaxErrorFramesPerReceive) {
    canfd_frame raw{};
    iovec iov{.iov_base = &raw, .iov_len = sizeof raw};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec)) + CMSG_SPACE(sizeof(std::uint32_t))];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    const ssize_t got = ::recvmsg(socket_.get(), &msg, MSG_DONTWAIT);
    if (got < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        TransportCounters::add(counters_.errors);
      }
      break;
    }
    std::int64_t stamp = clock_ns(CLOCK_MONOTONIC);
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level != SOL_SOCKET) continue;
      if (c->cmsg_type == SCM_TIMESTAMPNS) {
        timespec ts{};
        std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
        stamp = std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec + realtime_to_monotonic;
      } else if (c->cmsg_type == SO_RXQ_OVFL) {
        std::uint32_t dropped = 0;  // cumulative for the socket
        std::memcpy(&dropped, CMSG_DATA(c), sizeof dropped);
        counters_.drop(DropReason::kernel_overflow, dropped - kernel_drops_seen_);
        kernel_drops_seen_ = dropped;
      }
    }
    CanFrame frame;
    if (!socketcan::from_kernel_frame(raw, static_cast<std::size_t>(got), frame)) {
      counters_.drop(DropReason::malformed);
      continue;
    }
    if (frame.error()) {
      on_error_frame(frame);
      if (!deliver_error_frames_) continue;
    }
    out[n] = {.frame = frame, .timestamp_ns = stamp};
    bytes += carried_bytes(frame);
    ++n;
  }
  counters_.received(n, bytes, tick);
  budget_.handed(n);
  if (budget_.shed_now()) shed();
  return n;
}

void SocketCanTransport::shed() noexcept {
  std::array<canfd_frame, kShedBatch> raw{};  // on the prefaulted stack: no allocation
  std::array<iovec, kShedBatch> iov{};
  std::array<mmsghdr, kShedBatch> messages{};
  for (std::size_t batch = 0; batch < kMaxShedFramesPerTick / kShedBatch; ++batch) {
    for (std::size_t i = 0; i < kShedBatch; ++i) {
      iov[i] = {.iov_base = &raw[i], .iov_len = sizeof raw[i]};
      messages[i] = mmsghdr{};
      messages[i].msg_hdr.msg_iov = &iov[i];
      messages[i].msg_hdr.msg_iovlen = 1;
    }
    const int got = ::recvmmsg(socket_.get(), messages.data(), kShedBatch, MSG_DONTWAIT, nullptr);
    if (got <= 0) {
      if (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        TransportCounters::add(counters_.errors);
      }
      return;
    }
    std::uint64_t dropped = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(got); ++i) {
      CanFrame frame;
      if (!socketcan::from_kernel_frame(raw[i], messages[i].msg_len, frame)) {
        counters_.drop(DropReason::malformed);
      } else if (frame.error()) {
        on_error_frame(frame);  // the controller's state is never dropped
        if (deliver_error_frames_) ++dropped;
      } else {
        ++dropped;
      }
    }
    counters_.drop(DropReason::over_budget, dropped);
    if (static_cast<std::size_t>(got) < kShedBatch) return;  // the queue is empty
  }
}

SendStatus SocketCanTransport::send(const CanFrame& frame, std::int64_t tick) noexcept {
  canfd_frame raw{};
  const std::size_t size = socketcan::to_kernel_frame(frame, raw);
  if (size == 0 || frame.error() || (frame.fd() && !fd_enabled_)) {
    counters_.drop(DropReason::unsupported);
    return SendStatus::unsupported;
  }
  const ssize_t written = ::send(socket_.get(), &raw, size, MSG_DONTWAIT);
  if (written == static_cast<ssize_t>(size)) {
    counters_.sent(1, carried_bytes(frame), tick);
    return SendStatus::ok;
  }
  if (written < 0 && (errno == ENOBUFS || errno == EAGAIN || errno == EWOULDBLOCK)) {
    counters_.drop(DropReason::back_pressure);
    return SendStatus::back_pressure;
  }
  TransportCounters::add(counters_.errors);  // ENETDOWN (bus-off, link down), EIO…
  counters_.drop(DropReason::send_failed);
  return SendStatus::failed;
}

void SocketCanTransport::flush(std::int64_t /*tick*/) noexcept {}

}  // namespace hil::io::can
