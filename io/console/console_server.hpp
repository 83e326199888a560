#pragma once
// The operator console's server (docs/console.md): Boost.Beast HTTP and WebSocket on one
// non-RT thread with its own event loop — the page, its JSON API, the `hilsim.console.v1`
// stream and the Foxglove WebSocket endpoint, all on one port. The RT side is only its tap
// (console_tap.hpp), which the harness puts in the tick's `publish` slot.
//
// Lifecycle: construct (binds and listens: the URL is known; throws std::runtime_error when
// it cannot), put tap() in the tick plan, start() once the executive exists (serving begins),
// ended() when the run is over; the destructor stops the thread.
//
// Thread-safety: construct, start() and the destructor on one thread; ended() and
// counters() from any thread; the feed's callbacks run on the console thread.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "io/console/console_feed.hpp"
#include "io/console/console_spec.hpp"
#include "io/console/console_tap.hpp"
#include "rt_core/executive.hpp"

namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace hil::io::console {

struct ServerCounters {
  std::uint64_t clients = 0;         ///< open WebSocket clients
  std::uint64_t refused = 0;         ///< HTTP requests and upgrades refused
  std::uint64_t bad_messages = 0;    ///< client messages refused
  std::uint64_t dropped_frames = 0;  ///< data frames dropped for slow clients
  std::uint64_t closed_stalled = 0;  ///< clients closed for not reading
  std::uint64_t tap_dropped = 0;     ///< ticks the RT tap could not queue
};

class ConsoleServer {
 public:
  /// Binds options.address:options.port and writes the operator token to
  /// `runtime_dir`/console-<port>.token (mode 0600; removed by the destructor). Throws
  /// std::runtime_error naming the address when it cannot bind.
  ConsoleServer(const ConsoleSpec& options, ConsoleFeed feed,
                const std::filesystem::path& runtime_dir);
  ~ConsoleServer();
  ConsoleServer(const ConsoleServer&) = delete;
  ConsoleServer& operator=(const ConsoleServer&) = delete;

  /// "http://127.0.0.1:8642/" (the bound port, also when 0 was asked for).
  [[nodiscard]] std::string url() const;
  [[nodiscard]] const std::string& token() const noexcept;
  [[nodiscard]] const std::filesystem::path& token_file() const noexcept;
  /// The RT side: add to the tick's publish slot, after the channel snapshot.
  [[nodiscard]] ConsoleTap& tap() noexcept;

  /// Starts serving. `executive` outlives the server; `stop` asks the run to end (called on
  /// the console thread when an operator presses Stop).
  void start(const rt::Executive& executive, std::function<void()> stop);
  /// The run is over: `ending` is how ("completed", "stopped by the operator (console)").
  /// Clients get a final status; an operator's stop is acknowledged with the last tick.
  void ended(const std::string& ending, std::int64_t ticks);
  /// Any thread: loop command `id` (ConsoleFeed::submit) was applied at `tick` (`ok`: it took
  /// effect); `line` says what it was. Every client's event log shows it; the operator who sent
  /// it gets its `ack`.
  void command_applied(std::uint64_t id, std::int64_t tick, bool ok, std::string line);
  /// Any thread: what command `id` (one whose reply waits for a result: `uds`) came to; the
  /// operator who sent it gets `body` as a reply of `type` (docs/api.md), every client's event
  /// log its "text".
  void command_result(std::uint64_t id, std::string type, nlohmann::json body);

  /// Any thread: whether the loop runs real-time as the run's manifest says it (paced by the
  /// wall clock on a PREEMPT_RT kernel, SCHED_FIFO, memory locked) and rt::RtStatus::summary();
  /// `info` and `server_info` say so from then on (before: false, "not started").
  void set_realtime(bool realtime, std::string summary);

  [[nodiscard]] ServerCounters counters() const;
  /// The console thread's event loop, for other non-RT work of the run to share (after
  /// start(); whatever uses it must be gone before the server is).
  [[nodiscard]] boost::asio::io_context& context() noexcept;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hil::io::console
