#pragma once
// Plays a Trace onto CAN transports with its original timing. Every frame has an
// absolute deadline on the player's clock,
//
//     deadline(k, i) = start + (k · loop_period + t_i − t_0) / speed
//
// (k the loop, t_i the frame's log time, t_0 that of the first frame played, loop_period =
// the span of the played frames + loop_gap), and the player waits for it with
// Clock::sleep_until — clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) — never for a
// relative interval: the time a send takes does not accumulate, frame i of a 1 ms log leaves
// at start + i ms however slow each send is (canplayer and python-can's player sleep for the
// gap after each send, and drift by the send time per frame). A frame whose deadline has
// passed is sent at once. Frames sent back to back (due together) go out in one flush; the
// transports are flushed before every wait.
//
// Routing: `routes[j]` is the transport of the trace's interface j (nullptr: its frames are
// skipped and counted). Frames the FrameFilter rejects are counted as filtered.
// Back-pressure (SendStatus::back_pressure): the transport is flushed and the frame retried
// every back_pressure_retry until back_pressure_timeout; retries are counted, and a frame
// still refused then is counted as not sent — never dropped silently.
//
// Thread-safety: run() on one thread (the sending thread: no allocation, no lock, no
// exception, no logging; tested with an allocation counter). progress() and request_stop()
// from any thread; request_stop() is async-signal-safe (a lock-free atomic store).
// lateness() and partial-loop counts after run() returned.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "io/can/trace/frame_filter.hpp"
#include "io/can/trace/trace.hpp"
#include "io/can/transport/transport.hpp"
#include "rt_core/clock.hpp"
#include "rt_core/stats/histogram.hpp"

namespace hil::io::can {

struct PlayerSpec {
  double speed = 1.0;       ///< time scale: 2 plays twice as fast; 0 = as fast as possible
  std::uint64_t loops = 1;  ///< plays of the trace; 0 = until request_stop()
  rt::Nanoseconds loop_gap = rt::kMillisecond;    ///< log time from a loop's end to the next
  rt::Nanoseconds late_after = rt::kMillisecond;  ///< a frame later than this counts as late
  rt::Nanoseconds back_pressure_timeout = 100 * rt::kMillisecond;  ///< per frame
  rt::Nanoseconds back_pressure_retry = 100 * rt::kMicrosecond;
  rt::Nanoseconds stop_poll = 50 * rt::kMillisecond;  ///< longest sleep between stop checks
};

/// What run() did. Lateness = the time the frame was handed over (sent and, when no other
/// frame was due, flushed) minus its deadline.
struct PlayCounts {
  std::uint64_t sent = 0;                   ///< accepted by a transport
  std::uint64_t no_route = 0;               ///< of an interface without a transport
  std::uint64_t filtered = 0;               ///< rejected by the id filter
  std::uint64_t late = 0;                   ///< lateness > late_after
  std::uint64_t back_pressure_retries = 0;  ///< sends repeated after back_pressure
  std::uint64_t back_pressure_gave_up = 0;  ///< still refused after back_pressure_timeout
  std::uint64_t unsupported = 0;            ///< refused: the link cannot carry it
  std::uint64_t failed = 0;                 ///< I/O error
  std::uint64_t loops_completed = 0;
  bool stopped = false;                                   ///< request_stop() ended it
  rt::Nanoseconds start = 0;                              ///< clock time of deadline 0
  rt::Nanoseconds first_deadline = 0, last_deadline = 0;  ///< of the first/last frame sent
  rt::Nanoseconds first_sent = 0, last_sent = 0;          ///< when they were handed over

  [[nodiscard]] std::uint64_t not_sent() const noexcept {
    return back_pressure_gave_up + unsupported + failed;
  }
  /// (last_sent − first_sent) − (last_deadline − first_deadline): how much longer the play
  /// took than the log says (at the speed asked for).
  [[nodiscard]] rt::Nanoseconds duration_error() const noexcept {
    return (last_sent - first_sent) - (last_deadline - first_deadline);
  }
};

/// What one transport's send() answered other than ok, every attempt (retries included).
/// Transports count each of these refusals as a drop too; the difference is what they
/// dropped after accepting a frame (e.g. a cannelloni datagram the socket refused).
struct SendRefusals {
  std::uint64_t back_pressure = 0;
  std::uint64_t unsupported = 0;
  std::uint64_t failed = 0;
};

/// Live figures for a progress line (relaxed atomics, one writer).
struct PlayProgress {
  std::uint64_t sent = 0;
  std::uint64_t late = 0;
  std::uint64_t loop = 0;  ///< the loop being played, 0-based
};

class TracePlayer {
 public:
  /// Setup: plans the frames to play (routes and filter applied once), sizes everything.
  /// `routes` has one entry per trace interface. The trace, transports and clock must
  /// outlive the player. Throws std::invalid_argument for a routes size that does not match
  /// or a negative speed.
  TracePlayer(const Trace& trace, std::span<Transport* const> routes, FrameFilter filter,
              const PlayerSpec& options, rt::Clock& clock);

  /// Sending thread: plays the trace; returns when done or stopped.
  [[nodiscard]] PlayCounts run() noexcept;

  /// Any thread, or a signal handler: run() stops before the next frame (within stop_poll).
  void request_stop() noexcept { stop_.store(true, std::memory_order_relaxed); }

  /// Any thread.
  [[nodiscard]] PlayProgress progress() const noexcept;

  /// Frames one loop plays (routed and passing the filter).
  [[nodiscard]] std::size_t frames_per_loop() const noexcept { return plan_.size(); }
  /// Log time of one loop: played span + loop_gap (0 when nothing is played).
  [[nodiscard]] rt::Nanoseconds loop_period() const noexcept { return loop_period_; }

  /// After run(): the refusals of `transport` (zero for one the player does not use).
  [[nodiscard]] SendRefusals refusals_of(const Transport& transport) const noexcept;

  /// After run(): the lateness of every frame sent (1 µs bins to 10 ms; exact max).
  [[nodiscard]] rt::HistogramSummary lateness() const;

 private:
  struct Step {
    std::uint32_t record;     ///< index into the trace
    std::uint16_t transport;  ///< index into transports_
  };

  [[nodiscard]] rt::Nanoseconds deadline_of(std::uint64_t loop, std::size_t step) const noexcept;
  /// Sleeps until `deadline` in slices of at most stop_poll; false when a stop came first.
  [[nodiscard]] bool wait_until(rt::Nanoseconds deadline, std::int64_t tick) noexcept;
  /// Sends (retrying on back-pressure) and counts; true when the transport took the frame.
  [[nodiscard]] bool send(const Step& step, std::int64_t tick, PlayCounts& counts) noexcept;
  void flush_pending(std::int64_t tick) noexcept;
  /// Adds the frames skipped (no route) and filtered in `whole_loops` loops and among the
  /// first `partial_records` records of one more.
  void count_skipped(std::uint64_t whole_loops, std::size_t partial_records,
                     PlayCounts& counts) const noexcept;
  /// Whether record `i` is played, skipped for want of a route, or filtered out.
  enum class Fate : std::uint8_t { played, no_route, filtered };
  [[nodiscard]] Fate fate_of(std::size_t record) const noexcept;
  [[nodiscard]] bool stop_requested() const noexcept {
    return stop_.load(std::memory_order_relaxed);
  }

  const Trace& trace_;
  std::vector<Transport*> routes_;      // by trace interface
  std::vector<Transport*> transports_;  // distinct, in order of first use
  std::vector<std::uint8_t> pending_;   // by transports_: a send since its last flush
  std::vector<SendRefusals> refusals_;  // by transports_
  std::vector<Step> plan_;
  FrameFilter filter_;
  PlayerSpec options_;
  rt::Clock& clock_;
  rt::Nanoseconds loop_period_ = 0;
  rt::Nanoseconds t0_ = 0;
  std::uint64_t no_route_per_loop_ = 0;
  std::uint64_t filtered_per_loop_ = 0;
  rt::Histogram lateness_;
  std::atomic<bool> stop_{false};
  // Progress, written by run() only (relaxed; each read on its own).
  std::atomic<std::uint64_t> progress_sent_{0}, progress_late_{0}, progress_loop_{0};
  static_assert(std::atomic<bool>::is_always_lock_free, "request_stop() is async-signal-safe");
};

}  // namespace hil::io::can
