#include "io/can/transport/slcan_transport.hpp"

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "rt_core/clock.hpp"

namespace hil::io::can {
namespace {

std::optional<speed_t> baud_constant(std::uint32_t baud) noexcept {
  switch (baud) {
    case 9'600:
      return B9600;
    case 19'200:
      return B19200;
    case 38'400:
      return B38400;
    case 57'600:
      return B57600;
    case 115'200:
      return B115200;
    case 230'400:
      return B230400;
    case 460'800:
      return B460800;
    case 500'000:
      return B500000;
    case 921'600:
      return B921600;
    case 1'000'000:
      return B1000000;
    case 2'000'000:
      return B2000000;
    case 3'000'000:
      return B3000000;
    case 4'000'000:
      return B4000000;
    default:
      return std::nullopt;
  }
}

std::string errno_text(int error) { return std::system_category().message(error); }

std::string open_hint(int error) {
  switch (error) {
    case ENOENT:
      return " (is the adapter plugged in? see ls /dev/ttyACM* /dev/ttyUSB*)";
    case EACCES:
      return " (add the user to the dialout group, or run the systemd unit)";
    case EBUSY:
      return " (another program holds it: ModemManager, slcand, a terminal?)";
    default:
      return "";
  }
}

/// Raw 8N1 at `speed`, no flow control, reads return at once (VMIN = VTIME = 0).
void configure_tty(int fd, speed_t speed, const std::string& who) {
  termios tio{};
  if (::tcgetattr(fd, &tio) != 0) {
    throw std::runtime_error(who + ": not a terminal: " + errno_text(errno));
  }
  ::cfmakeraw(&tio);
  tio.c_cflag |= CLOCAL | CREAD;
  tio.c_cflag &= ~static_cast<tcflag_t>(CRTSCTS | CSTOPB);
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  ::cfsetispeed(&tio, speed);
  ::cfsetospeed(&tio, speed);
  if (::tcsetattr(fd, TCSANOW, &tio) != 0) {
    throw std::runtime_error(who + ": cannot configure the tty: " + errno_text(errno));
  }
  ::tcflush(fd, TCIOFLUSH);  // drop whatever an earlier user left
}

}  // namespace

SlcanTransport::SlcanTransport(std::string uri, const std::string& device, const SlcanSpec& options)
    : Transport(std::move(uri)),
      rx_chunk_(1024),
      tx_buffer_(std::max(options.tx_buffer_bytes, slcan::kMaxFormattedBytes)) {
  const std::string self(name());
  std::optional<char> bitrate;
  if (options.bitrate) {
    bitrate = slcan::bitrate_digit(*options.bitrate);
    if (!bitrate) {
      throw std::invalid_argument(self + ": bitrate " + std::to_string(*options.bitrate) +
                                  " has no SLCAN code; expected 10000, 20000, 50000, 100000, "
                                  "125000, 250000, 500000, 750000 or 800000 (S7), 1000000");
    }
  }
  const std::optional<speed_t> speed = baud_constant(options.baud);
  if (!speed) {
    throw std::invalid_argument(self + ": baud " + std::to_string(options.baud) +
                                " is not a standard serial speed (9600 … 4000000)");
  }
  fd_.reset(::open(device.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  if (!fd_) {
    const int error = errno;
    throw std::runtime_error(self + ": cannot open " + device + ": " + errno_text(error) +
                             open_hint(error));
  }
  if (::isatty(fd_.get()) == 0) throw std::runtime_error(self + ": " + device + " is not a tty");
  configure_tty(fd_.get(), *speed, self);

  std::string setup = "C\r";
  if (bitrate) setup.append({'S', *bitrate, '\r'});
  setup += "O\r";
  write_setup(setup);
}

SlcanTransport::~SlcanTransport() {
  if (fd_) (void)::write(fd_.get(), "C\r", 2);  // best effort: leave the adapter off the bus
}

void SlcanTransport::write_setup(std::string_view bytes) const {
  const rt::Nanoseconds deadline = rt::MonotonicClock().now() + rt::kSecond;
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd_.get(), bytes.data(), bytes.size());
    if (written > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(written));
      continue;
    }
    if (written < 0 && errno != EAGAIN && errno != EINTR) {
      throw std::runtime_error(std::string(name()) + ": cannot write: " + errno_text(errno));
    }
    const rt::Nanoseconds left = deadline - rt::MonotonicClock().now();
    if (left <= 0) throw std::runtime_error(std::string(name()) + ": the tty takes no bytes");
    pollfd p{.fd = fd_.get(), .events = POLLOUT, .revents = 0};
    (void)::poll(&p, 1, static_cast<int>(left / rt::kMillisecond) + 1);
  }
}

bool SlcanTransport::handle(slcan::LineAssembler::Event event, TimedFrame& out) noexcept {
  using Event = slcan::LineAssembler::Event;
  switch (event) {
    case Event::none:
      return false;
    case Event::bell:
      TransportCounters::add(counters_.errors);
      return false;
    case Event::overlong:
      counters_.drop(DropReason::overlong_line);
      return false;
    case Event::line:
      break;
  }
  TransportCounters::add(counters_.rx_packets);
  switch (slcan::parse_line(assembler_.line(), out.frame)) {
    case slcan::LineKind::frame:
      out.timestamp_ns = rx_timestamp_ns_;
      return true;
    case slcan::LineKind::command:
      TransportCounters::add(counters_.peer_commands);
      if (!queue({&slcan::kOkByte, 1})) counters_.drop(DropReason::back_pressure);
      return false;
    case slcan::LineKind::malformed:
      counters_.drop(DropReason::malformed);
      return false;
    case slcan::LineKind::ok:
    case slcan::LineKind::transmit_ack:
    case slcan::LineKind::response:
      return false;
  }
  return false;
}

bool SlcanTransport::fill() noexcept {
  const ssize_t got = ::read(fd_.get(), rx_chunk_.data(), rx_chunk_.size());
  if (got <= 0) {
    if (got < 0 && errno != EAGAIN && errno != EINTR) TransportCounters::add(counters_.errors);
    return false;
  }
  rx_begin_ = 0;
  rx_end_ = static_cast<std::size_t>(got);
  rx_timestamp_ns_ = rt::MonotonicClock().now();
  return true;
}

std::size_t SlcanTransport::receive(std::span<TimedFrame> out, std::int64_t tick) noexcept {
  out = out.first(std::min(out.size(), budget_.allowance(tick)));
  std::size_t n = 0;
  std::uint64_t bytes = 0;
  std::size_t reads = 0;
  while (n < out.size()) {
    if (rx_begin_ == rx_end_) {
      if (reads == kMaxReadsPerReceive) break;
      ++reads;
      if (!fill()) break;
    }
    while (rx_begin_ < rx_end_ && n < out.size()) {
      if (handle(assembler_.push(rx_chunk_[rx_begin_++]), out[n])) {
        bytes += carried_bytes(out[n].frame);
        ++n;
      }
    }
  }
  counters_.received(n, bytes, tick);
  budget_.handed(n);
  if (budget_.shed_now()) shed();
  return n;
}

void SlcanTransport::shed() noexcept {
  TimedFrame discarded;
  std::uint64_t dropped = 0;
  for (std::size_t reads = 0;; ++reads) {
    while (rx_begin_ < rx_end_) {
      if (handle(assembler_.push(rx_chunk_[rx_begin_++]), discarded)) ++dropped;
    }
    if (reads == kMaxReadsPerReceive || !fill()) break;
  }
  counters_.drop(DropReason::over_budget, dropped);
}

bool SlcanTransport::queue(std::span<const char> bytes) noexcept {
  if (tx_buffer_.size() - tx_size_ < bytes.size()) return false;
  std::copy(bytes.begin(), bytes.end(), tx_buffer_.begin() + static_cast<std::ptrdiff_t>(tx_size_));
  tx_size_ += bytes.size();
  return true;
}

SendStatus SlcanTransport::send(const CanFrame& frame, std::int64_t tick) noexcept {
  if (!is_valid(frame) || frame.error()) {
    counters_.drop(DropReason::unsupported);
    return SendStatus::unsupported;
  }
  // SLCAN has no ESI bit (only a node in error-passive state sets it, never a host): drop it.
  const std::span<char> room = std::span(tx_buffer_).subspan(tx_size_);
  const std::size_t written = slcan::format_frame(frame, room);  // 0: the buffer is full
  if (written == 0) {
    counters_.drop(DropReason::back_pressure);
    return SendStatus::back_pressure;
  }
  tx_size_ += written;
  TransportCounters::add(counters_.tx_packets);
  counters_.sent(1, carried_bytes(frame), tick);
  return SendStatus::ok;
}

void SlcanTransport::flush(std::int64_t /*tick*/) noexcept {
  if (tx_size_ == 0) return;
  const ssize_t written = ::write(fd_.get(), tx_buffer_.data(), tx_size_);
  if (written > 0) {
    const auto done = static_cast<std::size_t>(written);
    std::memmove(tx_buffer_.data(), tx_buffer_.data() + done, tx_size_ - done);
    tx_size_ -= done;
  } else if (written < 0 && errno != EAGAIN && errno != EINTR) {
    // The device is gone or broken: what is queued will never go out.
    TransportCounters::add(counters_.errors);
    counters_.drop(
        DropReason::send_failed,
        static_cast<std::uint64_t>(std::count(
            tx_buffer_.begin(), tx_buffer_.begin() + static_cast<std::ptrdiff_t>(tx_size_),
            slcan::kOkByte)));
    tx_size_ = 0;
  }
}

}  // namespace hil::io::can
