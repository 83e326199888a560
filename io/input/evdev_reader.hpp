#pragma once
// A Linux joystick or steering wheel for a bench without a browser (docs/console.md "Driving"):
// a thread of its own ("hilsim-evdev", non-RT) reads struct input_event records from a device
// path (/dev/input/by-id/…-event-joystick) — or from a FIFO or file of such records (tests, a
// recorded stream) — and hands EV_ABS axes and EV_KEY buttons to the DriverInput. On a real
// device (a character device) it asks each mapped axis's range and position with EVIOCGABSINFO
// (the rig file's range serves otherwise) and again after the kernel dropped events
// (SYN_DROPPED). When the device goes away (unplugged, a FIFO's writer closed) its axes rest and
// it is opened again, every second until it is back (a regular file is read once). Garbage and
// short reads are counted.
//
// Thread-safety: construct and destroy on one thread (the destructor stops and joins);
// counters() from any thread.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "io/input/driver_input.hpp"
#include "io/input/evdev_stream.hpp"

namespace hil::io::input {

struct EvdevReaderCounters {
  EvdevStreamCounters stream;
  std::uint64_t opens = 0;        ///< times the path was opened
  std::uint64_t axis_events = 0;  ///< EV_ABS events of a mapped axis
  std::uint64_t button_events = 0;
  std::string error;  ///< the last failure to open or read ("" none)
};

class EvdevReader {
 public:
  /// Starts reading `path` into `input` (which must outlive the reader); `now` gives the
  /// clock DriverInput's calls use [s]. Throws std::system_error when the thread cannot start.
  EvdevReader(std::filesystem::path path, DriverInput& input, std::function<double()> now);
  ~EvdevReader();
  EvdevReader(const EvdevReader&) = delete;
  EvdevReader& operator=(const EvdevReader&) = delete;

  [[nodiscard]] EvdevReaderCounters counters() const;
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  void run();
  /// Opens the path; false (error kept) when it cannot.
  bool open_device();
  void close_device();
  /// A real device: each mapped axis's range and position (EVIOCGABSINFO).
  void query_axes();
  void on_event(const EvdevEvent& e);

  std::filesystem::path path_;
  DriverInput& input_;
  std::function<double()> now_;
  int fd_ = -1;
  int stop_fd_ = -1;        ///< an eventfd: the destructor wakes the thread
  bool is_device_ = false;  ///< a character device: EVIOCGABSINFO answers
  bool is_file_ = false;    ///< a regular file: read once to its end
  EvdevStream stream_;
  mutable std::mutex counters_mutex_;
  EvdevReaderCounters counters_;  ///< guarded by counters_mutex_ (stream copied in)
  std::thread thread_;
};

}  // namespace hil::io::input
