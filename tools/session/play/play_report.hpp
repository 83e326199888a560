#pragma once
// What `hilsim play` did, as the summary printed at the end and as JSON (--json).

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "io/can/trace/trace_player.hpp"
#include "rt_core/stats/histogram.hpp"

namespace hil::session {

/// Frames a transport dropped after accepting them (e.g. a cannelloni datagram the socket
/// refused), from its counters before and after the play.
struct TransportDrops {
  std::string uri;
  std::uint64_t frames = 0;
  std::string reasons;  ///< "back_pressure 3, send_failed 1"
};

/// The frames the transport at `uri` dropped after accepting them: how much its transmit drop
/// counters (back_pressure, send_failed) grew beyond the refusals its send() reported to the
/// player (which transports count as drops too). Unsupported frames and a virtual bus's
/// peer_queue_full are refusals the player counts itself.
[[nodiscard]] TransportDrops after_send_drops(std::string uri,
                                              const io::can::TransportStats& before,
                                              const io::can::TransportStats& after,
                                              const io::can::SendRefusals& refused);

struct PlayReport {
  io::can::PlayCounts counts;
  rt::HistogramSummary lateness;
  std::size_t frames_per_loop = 0;
  std::uint64_t loops_requested = 1;  ///< 0 = until Ctrl-C
  double speed = 1.0;                 ///< 0 = max
  rt::Nanoseconds late_after = 0;
  std::vector<std::string> unrouted_interfaces;  ///< log interfaces with no destination
  bool filtered = false;                         ///< --ids given
  std::vector<TransportDrops> transport_drops;
  std::size_t bad_lines = 0;   ///< --lenient: malformed lines skipped
  std::size_t asc_events = 0;  ///< ASC: non-frame lines skipped
  std::string realtime;        ///< rt::RtStatus::summary()

  /// Frames that were routed but did not reach the transport or were dropped by it.
  [[nodiscard]] std::uint64_t lost() const noexcept;
};

/// Several lines, each ending in a newline.
[[nodiscard]] std::string format_play_summary(const PlayReport& report);

/// The figures of the summary with stable keys: frames_sent, frames_per_loop, loops_requested,
/// loops_completed, stopped, skipped_no_route, unrouted_interfaces, filtered, late,
/// late_after_us, lateness_us{p50,p99,max,mean} and duration_error_us (null at speed max),
/// played_s, back_pressure_retries, not_sent{back_pressure,unsupported,failed},
/// transport_drops{URI: frames}, bad_lines, asc_events, realtime.
[[nodiscard]] nlohmann::json play_report_json(const PlayReport& report);

}  // namespace hil::session
