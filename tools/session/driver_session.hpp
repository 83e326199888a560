#pragma once
// A driver in the loop of a live run (docs/console.md "Driving"): the rig's driver block as a
// DriverInput (io/input/driver_input.hpp) fed by the console's `drive` messages (the page's
// gamepad and keyboard) and, when the rig file or `hilsim run --joystick` names one, an evdev
// device read on a thread of its own; pump() turns the controls into writes and releases of
// the run's command queue — applied at a tick, recorded in commands.log, replayed by `hilsim
// replay` as they were. RunBuilder makes one for a live run of a rig with a driver block.
//
// Thread-safety: drive() on the console thread, pump() and is_control_command() on the run's
// I/O thread (the same thread when the run has a console), summary() from any; the
// constructor and destructor on the thread that builds and ends the run.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "io/console/console_protocol.hpp"
#include "io/input/driver_input.hpp"
#include "io/input/evdev_reader.hpp"
#include "runtime/commands/command_queue.hpp"

namespace hil::session {

class DriverSession {
 public:
  /// `queue` must outlive it. `joystick`: the evdev device to read (--joystick, else the rig
  /// file's evdev_device, else none); std::runtime_error when it does not exist.
  DriverSession(const io::input::DriverSpec& spec, runtime::CommandQueue& queue,
                std::optional<std::filesystem::path> joystick);
  ~DriverSession();
  DriverSession(const DriverSession&) = delete;
  DriverSession& operator=(const DriverSession&) = delete;

  /// The writes and releases due now (every 20 ms on the I/O thread).
  void pump();
  /// The console's `drive` from the operator holding the lock: its state after it
  /// ({"mode": "human" | "auto", "values": {channel: value}}).
  [[nodiscard]] nlohmann::json drive(const io::console::Drive& d);
  /// Whether the applied command `id` is one of the driver's control writes (not the mode):
  /// every console's event log leaves those out (they come at up to 50 Hz per channel), while
  /// commands.log keeps each. Forgets `id`.
  [[nodiscard]] bool is_control_command(std::uint64_t id);
  /// One line for the run's summary: writes, releases, refusals, the evdev device's counters;
  /// "" when nobody drove and no joystick was read.
  [[nodiscard]] std::string summary() const;

 private:
  [[nodiscard]] double now() const;

  io::input::DriverInput input_;
  runtime::CommandQueue& queue_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex ids_mutex_;
  std::set<std::uint64_t> control_ids_;  ///< submitted control writes not yet applied
  std::unique_ptr<io::input::EvdevReader> evdev_;
};

}  // namespace hil::session
