#include "tools/session/run/can_link_report.hpp"

#include <fmt/format.h>

#include <array>

namespace hil::session {
namespace {

using io::can::DropReason;

/// Drops on the receive side (frames, or datagrams/lines as transport_counters.hpp says).
constexpr std::array kReceiveReasons = {DropReason::over_budget,   DropReason::unknown_peer,
                                        DropReason::malformed,     DropReason::truncated,
                                        DropReason::oversized,     DropReason::queue_full,
                                        DropReason::overlong_line, DropReason::kernel_overflow};
constexpr std::array kSendReasons = {DropReason::back_pressure, DropReason::unsupported,
                                     DropReason::send_failed, DropReason::peer_queue_full};

}  // namespace

std::string can_link_summary(std::string_view bus, const io::can::Transport& link) {
  const io::can::TransportStats s = link.counters().snapshot();
  std::string dropped;
  for (const DropReason r : kReceiveReasons) {
    if (s.drop_count(r) == 0) continue;
    dropped += fmt::format("{}{} {}", dropped.empty() ? "" : ", ", s.drop_count(r), to_string(r));
  }
  if (dropped.empty()) return {};  // the bus's own line says the rest
  const std::size_t budget = link.rx_budget();
  return fmt::format(
      "  CAN {} link: {} frames to the tick ({}), dropped: {}\n", bus, s.rx_frames,
      budget == 0 ? std::string("no budget") : fmt::format("budget {} per tick", budget),
      dropped.empty() ? std::string("none") : dropped);
}

nlohmann::json can_link_json(const io::can::Transport& link) {
  const io::can::TransportStats s = link.counters().snapshot();
  nlohmann::json dropped = nlohmann::json::object();
  for (const DropReason r : kReceiveReasons) dropped[std::string(to_string(r))] = s.drop_count(r);
  nlohmann::json tx_dropped = nlohmann::json::object();
  for (const DropReason r : kSendReasons) tx_dropped[std::string(to_string(r))] = s.drop_count(r);
  const std::size_t budget = link.rx_budget();
  return {{"budget_frames_per_tick", budget == 0 ? nlohmann::json() : nlohmann::json(budget)},
          {"frames", s.rx_frames},
          {"packets", s.rx_packets},
          {"dropped", std::move(dropped)},
          {"tx_frames", s.tx_frames},
          {"tx_dropped", std::move(tx_dropped)},
          {"sequence_lost", s.sequence_lost},
          {"errors", s.errors}};
}

}  // namespace hil::session
