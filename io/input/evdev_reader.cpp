#include "io/input/evdev_reader.hpp"

#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <system_error>

namespace hil::io::input {

namespace {

constexpr int kPollMs = 200;
constexpr int kReopenMs = 1000;

}  // namespace

EvdevReader::EvdevReader(std::filesystem::path path, DriverInput& input,
                         std::function<double()> now)
    : path_(std::move(path)), input_(input), now_(std::move(now)) {
  stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (stop_fd_ < 0) throw std::system_error(errno, std::generic_category(), "eventfd");
  thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "hilsim-evdev");
    run();
  });
}

EvdevReader::~EvdevReader() {
  const std::uint64_t one = 1;
  (void)::write(stop_fd_, &one, sizeof one);
  if (thread_.joinable()) thread_.join();
  close_device();
  ::close(stop_fd_);
}

EvdevReaderCounters EvdevReader::counters() const {
  const std::lock_guard lock(counters_mutex_);
  return counters_;
}

bool EvdevReader::open_device() {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  const std::lock_guard lock(counters_mutex_);
  if (fd_ < 0) {
    counters_.error = fmt::format("{}: {}", path_.string(), std::generic_category().message(errno));
    return false;
  }
  struct stat st {};
  const bool known = ::fstat(fd_, &st) == 0;
  is_device_ = known && S_ISCHR(st.st_mode);
  is_file_ = known && S_ISREG(st.st_mode);
  ++counters_.opens;
  counters_.error.clear();
  return true;
}

void EvdevReader::close_device() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void EvdevReader::query_axes() {
  if (!is_device_) return;  // a FIFO or a file: the rig file's ranges
  for (const AxisMapping& a : input_.spec().axes) {
    if (a.device != Device::evdev) continue;
    input_absinfo info{};
    if (::ioctl(fd_, EVIOCGABS(a.index), &info) != 0) continue;  // not an axis of this device
    input_.evdev_range(a.index, info.minimum, info.maximum);
    input_.evdev_axis(a.index, info.value, now_());
  }
}

void EvdevReader::on_event(const EvdevEvent& e) {
  switch (e.kind) {
    case EvdevEvent::Kind::axis: {
      input_.evdev_axis(e.code, e.value, now_());
      const std::lock_guard lock(counters_mutex_);
      ++counters_.axis_events;
      break;
    }
    case EvdevEvent::Kind::button: {
      if (e.value == 2) break;  // autorepeat: still down
      input_.evdev_button(e.code, e.value != 0, now_());
      const std::lock_guard lock(counters_mutex_);
      ++counters_.button_events;
      break;
    }
    case EvdevEvent::Kind::dropped:
      query_axes();  // the kernel lost events: read where the axes are now
      break;
    case EvdevEvent::Kind::sync:
    case EvdevEvent::Kind::other:
      break;
  }
}

void EvdevReader::run() {
  std::array<std::uint8_t, 4096> buffer{};
  const auto gone = [this] {  // unplugged, or the FIFO's writer closed: rest, open again
    stream_.end();
    input_.evdev_gone();
    const bool file = is_file_;
    close_device();
    return file;  // a file read to its end: nothing more will come
  };
  const auto wait_for_stop = [this] {
    pollfd stop{.fd = stop_fd_, .events = POLLIN, .revents = 0};
    while (::poll(&stop, 1, -1) <= 0) {
    }
  };
  for (;;) {
    if (fd_ < 0) {
      if (open_device()) {
        query_axes();
      } else {
        pollfd stop{.fd = stop_fd_, .events = POLLIN, .revents = 0};
        if (::poll(&stop, 1, kReopenMs) > 0) return;
        continue;
      }
    }
    std::array<pollfd, 2> fds{pollfd{.fd = fd_, .events = POLLIN, .revents = 0},
                              pollfd{.fd = stop_fd_, .events = POLLIN, .revents = 0}};
    if (::poll(fds.data(), fds.size(), kPollMs) < 0 && errno != EINTR) return;
    if ((fds[1].revents & POLLIN) != 0) return;
    const short r = fds[0].revents;
    if ((r & POLLIN) != 0) {
      const ssize_t n = ::read(fd_, buffer.data(), buffer.size());
      if (n > 0) {
        stream_.feed(std::span(buffer.data(), static_cast<std::size_t>(n)),
                     [this](const EvdevEvent& e) { on_event(e); });
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        if (n < 0) {
          const std::lock_guard lock(counters_mutex_);
          counters_.error =
              fmt::format("{}: {}", path_.string(), std::generic_category().message(errno));
        }
        if (gone()) {
          {
            const std::lock_guard lock(counters_mutex_);
            counters_.stream = stream_.counters();
          }
          return wait_for_stop();
        }
      }
    } else if ((r & (POLLHUP | POLLERR | POLLNVAL)) != 0) {
      (void)gone();
    }
    const std::lock_guard lock(counters_mutex_);
    counters_.stream = stream_.counters();
  }
}

}  // namespace hil::io::input
