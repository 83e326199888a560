#pragma once
// What a CAN bus's transport received and dropped before the tick saw it — the link's side of
// the bus (io/can/transport/transport_counters.hpp): frames handed to the tick against the
// receive budget, and the frames or datagrams dropped by reason (over_budget, unknown_peer,
// malformed, …; docs/can.md "Receive budget"). For the run summary, manifest.json and the
// console's CAN view.
//
// Thread-safety: any thread; the counters are relaxed atomics (each value exact, the set not a
// consistent snapshot while the run goes on).

#include <string>

#include <nlohmann/json.hpp>

#include "io/can/transport/transport.hpp"

namespace hil::session {

/// One line of the run summary: "  CAN ecu link: 1200 frames to the tick (budget 86 per tick),
/// dropped: 3999900 over_budget, 2 unknown_peer"; "" for a link that dropped nothing.
[[nodiscard]] std::string can_link_summary(std::string_view bus, const io::can::Transport& link);

/// {"budget_frames_per_tick", "frames", "packets", "dropped": {reason: count} of the receive
/// reasons, "tx_dropped": {reason: count}, "sequence_lost", "errors"}.
[[nodiscard]] nlohmann::json can_link_json(const io::can::Transport& link);

}  // namespace hil::session
