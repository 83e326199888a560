#include "tools/session/driver_session.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "io/input/driver_channels.hpp"

namespace hil::session {

DriverSession::DriverSession(const io::input::DriverSpec& spec, runtime::CommandQueue& queue,
                             std::optional<std::filesystem::path> joystick)
    : input_(spec), queue_(queue) {
  if (!joystick && !spec.evdev_device.empty()) joystick = spec.evdev_device;
  if (!joystick) return;
  std::error_code ec;
  if (!std::filesystem::exists(*joystick, ec)) {
    throw std::runtime_error(fmt::format(
        "joystick {}: no such device (a /dev/input/by-id/…-event-joystick path, or a FIFO of "
        "input_event records)",
        joystick->string()));
  }
  if (std::filesystem::is_directory(*joystick, ec)) {
    throw std::runtime_error(
        fmt::format("joystick {}: a directory, not a device", joystick->string()));
  }
  if (!input_.uses(io::input::Device::evdev)) {
    throw std::runtime_error(fmt::format(
        "joystick {}: the rig's driver block maps no EVDEV axis or button to read from it "
        "(docs/console.md \"Driving\")",
        joystick->string()));
  }
  evdev_ = std::make_unique<io::input::EvdevReader>(*joystick, input_, [this] { return now(); });
}

DriverSession::~DriverSession() = default;

double DriverSession::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void DriverSession::pump() {
  input_.pump(now(), [this](const std::string& channel, std::optional<double> value) {
    try {
      const std::uint64_t id = value ? queue_.write(channel, *value) : queue_.release(channel);
      if (value && channel != io::input::kModeChannel) {
        const std::lock_guard lock(ids_mutex_);
        control_ids_.insert(id);
      }
      return true;
    } catch (const std::invalid_argument&) {  // the queue is full: again at the next pump
      return false;
    }
  });
}

nlohmann::json DriverSession::drive(const io::console::Drive& d) {
  const double t = now();
  if (d.human) input_.set_human(*d.human);
  if (d.gamepad) input_.gamepad(d.gamepad->axes, d.gamepad->buttons, t);
  if (d.keys) input_.keyboard(*d.keys, t);
  const io::input::DriverStatus status = input_.status();
  nlohmann::json values = nlohmann::json::object();
  for (const auto& [channel, value] : status.values) values[channel] = value;
  return {{"mode", status.human ? "human" : "auto"}, {"values", std::move(values)}};
}

bool DriverSession::is_control_command(std::uint64_t id) {
  const std::lock_guard lock(ids_mutex_);
  return control_ids_.erase(id) > 0;
}

std::string DriverSession::summary() const {
  const io::input::DriverCounters c = input_.counters();
  if (!evdev_ && c.writes + c.releases + c.presses + c.refused == 0) return {};  // nobody drove
  std::string out =
      fmt::format("driver: {} writes, {} releases, {} presses", c.writes, c.releases, c.presses);
  if (c.refused > 0) out += fmt::format(", {} refused (the command queue was full)", c.refused);
  if (evdev_) {
    const io::input::EvdevReaderCounters e = evdev_->counters();
    out += fmt::format("; joystick {}: {} axis and {} button events, {} garbage, {} short reads",
                       evdev_->path().string(), e.axis_events, e.button_events, e.stream.garbage,
                       e.stream.short_reads);
    if (e.stream.dropped > 0) out += fmt::format(", {} overruns (SYN_DROPPED)", e.stream.dropped);
    if (!e.error.empty()) out += fmt::format(" ({})", e.error);
  }
  return out;
}

}  // namespace hil::session
