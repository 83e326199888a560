#include "tools/session/console_can_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "io/can/mapping/e2e_attributes.hpp"
#include "runtime/rig.hpp"
#include "tools/session/run/can_link_report.hpp"

namespace hil::session {
namespace {

using nlohmann::json;

std::uint64_t load(const std::atomic<std::uint64_t>& a) {
  return a.load(std::memory_order_relaxed);
}

json hex(const std::optional<io::can::CanFrame>& frame) {
  if (!frame) return nullptr;
  std::string out;
  for (const std::uint8_t b : frame->payload()) out += fmt::format("{:02x}", b);
  return out;
}

/// The CAN view (docs/console.md `can`), with each message's measured cycle from its frame
/// count and last tick between two calls. What does not change during the run — the rest-bus
/// role of each message, its send plan and E2E profile, the channels of its signals — is
/// resolved once, when the view is made.
class CanView {
 public:
  explicit CanView(runtime::Rig& rig) : rig_(rig) {
    const rt::ChannelTable& table = rig_.table();
    for (std::size_t b = 0; b < rig_.buses().size(); ++b) {
      const io::can::CanBus& bus = *rig_.buses()[b];
      const io::can::CanBusSpec& spec = rig_.settings().can[b];
      Bus& out = buses_.emplace_back();
      out.name = bus.name();
      out.link = &bus.transport();
      for (std::size_t i = 0; i < spec.rx.size() && i < bus.rx_count(); ++i) {
        const io::can::RxMessageSpec& r = spec.rx[i];
        Message& m = message(out, spec, r.message, r.signals, &bus.rx_counters(i), true);
        m.dut = r.dut;
        if (r.e2e) {
          m.e2e = std::string(io::can::e2e::profile_name(r.e2e->profile));
          m.e2e_status = table.find(io::can::message_channel(spec.name, r.message, "e2e"));
        }
        if (r.dut) generated(m, spec, table);  // the device's signals, as received
      }
      for (std::size_t i = 0; i < spec.tx.size() && i < bus.tx_count(); ++i) {
        const io::can::TxMessageSpec& t = spec.tx[i];
        Message& m = message(out, spec, t.message, t.signals, &bus.tx_counters(i), false);
        m.node = t.simulated ? t.node : std::string();
        if (t.send) m.send = t.send->describe();
        if (t.e2e) m.e2e = std::string(io::can::e2e::profile_name(t.e2e->profile));
        if (t.simulated) generated(m, spec, table);  // its free signals, the node's inputs
      }
    }
  }

  json operator()() {
    const rt::ChannelTable& table = rig_.table();
    table.read_snapshot(snapshot_);
    const double period_ms = static_cast<double>(rig_.settings().executive.period) * 1e-6;
    json buses = json::array();
    for (Bus& bus : buses_) {
      json messages = json::array();
      for (Message& msg : bus.messages) {
        const io::can::MessageCounters& c = *msg.counters;
        const std::uint64_t frames = load(c.frames);
        const std::int64_t last = c.last_tick.load(std::memory_order_relaxed);
        Seen& prev = msg.seen;
        if (frames > prev.frames && prev.frames > 0 && last > prev.last_tick) {
          prev.cycle_ms = static_cast<double>(last - prev.last_tick) * period_ms /
                          static_cast<double>(frames - prev.frames);
        }
        prev.frames = frames;
        prev.last_tick = last;
        json signals = json::array();
        for (const Signal& s : msg.signals) {
          const double v = s.id ? snapshot_[*s.id] : NAN;
          signals.push_back({{"name", s.name},
                             {"channel", s.channel},
                             {"value", std::isfinite(v) ? json(v) : json()},
                             {"unit", s.unit}});
        }
        const io::can::dbc::Message* m = msg.dbc;
        messages.push_back(
            {{"name", msg.name},
             {"id", m != nullptr ? json(m->id) : json()},
             {"extended", m != nullptr && m->extended},
             {"dir", msg.rx ? "rx" : "tx"},
             {"dbc_cycle_ms", m != nullptr && m->cycle_time_ms ? json(*m->cycle_time_ms) : json()},
             {"measured_cycle_ms", prev.cycle_ms ? json(*prev.cycle_ms) : json()},
             {"frames", frames},
             {"errors", load(c.errors)},
             {"drops", load(c.drops)},
             {"timeouts", load(c.timeouts)},
             {"counter_jumps", load(c.counter_jumps)},
             {"last_tick", last >= 0 ? json(last) : json()},
             {"data", hex(c.last_payload.load())},
             {"signals", std::move(signals)},
             {"node", msg.node},
             {"send", msg.send ? json(*msg.send) : json()},
             {"e2e", msg.e2e ? json(*msg.e2e) : json()},
             {"dut", msg.dut},
             {"e2e_status", msg.e2e_status ? status_name(snapshot_[*msg.e2e_status]) : json()}});
      }
      buses.push_back({{"name", bus.name},
                       {"link", can_link_json(*bus.link)},
                       {"messages", std::move(messages)}});
    }
    return buses;
  }

 private:
  struct Seen {
    std::uint64_t frames = 0;
    std::int64_t last_tick = -1;
    std::optional<double> cycle_ms;
  };
  struct Signal {
    std::string name;     ///< DBC signal name
    std::string channel;  ///< its channel
    std::optional<rt::ChannelId> id;
    std::string unit;
  };
  struct Message {
    std::string name;
    const io::can::dbc::Message* dbc = nullptr;
    const io::can::MessageCounters* counters = nullptr;
    bool rx = false;
    bool dut = false;
    std::string node;                         ///< the simulated node that sends it, or ""
    std::optional<std::string> send;          ///< its send plan, described
    std::optional<std::string> e2e;           ///< "P01", …
    std::optional<rt::ChannelId> e2e_status;  ///< can.<bus>.<message>.e2e
    std::vector<Signal> signals;
    Seen seen;
  };
  struct Bus {
    std::string name;
    const io::can::Transport* link = nullptr;  ///< its transport's counters (can_link_report)
    std::vector<Message> messages;
  };

  /// A message with the signals its spec maps.
  Message& message(Bus& bus, const io::can::CanBusSpec& spec, const std::string& name,
                   const std::vector<io::can::SignalBinding>& bindings,
                   const io::can::MessageCounters* counters, bool rx) {
    const rt::ChannelTable& table = rig_.table();
    Message& m = bus.messages.emplace_back();
    m.name = name;
    m.dbc = spec.database.find_message(name);
    m.counters = counters;
    m.rx = rx;
    for (const io::can::SignalBinding& s : bindings) {
      const std::optional<rt::ChannelId> id = table.find(s.channel);
      m.signals.push_back({.name = s.signal,
                           .channel = s.channel,
                           .id = id,
                           .unit = id ? table.spec(*id).unit : std::string()});
    }
    return m;
  }

  /// The channels the bus made for the message's signals (can.<bus>.<message>.<signal>, as
  /// io/can/mapping/can_bus.cpp names them): those the table has and the spec does not map.
  static void generated(Message& m, const io::can::CanBusSpec& spec,
                        const rt::ChannelTable& table) {
    if (m.dbc == nullptr) return;
    for (const io::can::dbc::Signal& s : m.dbc->signals) {
      std::string channel = io::can::signal_channel(spec.name, m.name, s.name);
      const std::optional<rt::ChannelId> id = table.find(channel);
      if (!id || std::any_of(m.signals.begin(), m.signals.end(),
                             [&](const Signal& x) { return x.channel == channel; })) {
        continue;
      }
      m.signals.push_back(
          {.name = s.name, .channel = std::move(channel), .id = id, .unit = table.spec(*id).unit});
    }
  }

  /// The value of an .e2e channel as its status's name (io/can/e2e/status.hpp).
  static json status_name(double v) {
    static constexpr std::array<const char*, 5> kNames = {"OK", "REPEATED", "WRONG_SEQUENCE",
                                                          "ERROR", "NODATA"};
    if (!std::isfinite(v) || v < 0 || v >= static_cast<double>(kNames.size())) return nullptr;
    return kNames[static_cast<std::size_t>(v)];
  }

  runtime::Rig& rig_;
  rt::ChannelSnapshot snapshot_;
  std::vector<Bus> buses_;
};

}  // namespace

std::function<json()> can_view(runtime::Rig& rig) { return CanView(rig); }

}  // namespace hil::session
