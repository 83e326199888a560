#include "tools/session/console_feed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "io/can/mapping/e2e_attributes.hpp"
#include "runtime/commands/command_queue.hpp"
#include "runtime/faults/fault_engine.hpp"
#include "runtime/record/recording.hpp"
#include "runtime/rig.hpp"
#include "runtime/scenario/scenario_judge.hpp"

namespace hil::session {

namespace {

using nlohmann::json;

std::uint64_t load(const std::atomic<std::uint64_t>& a) {
  return a.load(std::memory_order_relaxed);
}

json counters_json(const runtime::Rig& rig, const runtime::Recording* recording) {
  json can = json::array();
  for (const auto& bus : rig.buses()) {
    std::uint64_t rx = 0;
    std::uint64_t tx = 0;
    std::uint64_t refused = bus->unknown_frames();
    std::uint64_t timeouts = 0;
    for (std::size_t i = 0; i < bus->rx_count(); ++i) {
      rx += load(bus->rx_counters(i).frames);
      refused += load(bus->rx_counters(i).drops);
      timeouts += load(bus->rx_counters(i).timeouts);
    }
    for (std::size_t i = 0; i < bus->tx_count(); ++i) tx += load(bus->tx_counters(i).frames);
    can.push_back({{"bus", bus->name()},
                   {"rx", rx},
                   {"tx", tx},
                   {"refused", refused},
                   {"timeouts", timeouts}});
  }
  json recorder;  // null: not recording
  if (recording != nullptr) {
    const runtime::RecordingCounters c = recording->counters();
    recorder = {{"samples", c.telemetry.samples_recorded},
                {"drops", c.telemetry.samples_dropped + c.can_log.frames_dropped},
                {"frames", c.can_log.frames_written},
                {"errors", c.errors}};
  }
  return {{"can", std::move(can)}, {"recorder", std::move(recorder)}};
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
      buses.push_back({{"name", bus.name}, {"messages", std::move(messages)}});
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

/// Events from counters that only grow: a CAN message timing out, the recorder's first error.
class EventWatch {
 public:
  EventWatch(runtime::Rig& rig, const runtime::Recording* recording,
             const runtime::ScenarioJudge* judge, const runtime::FaultEngine* faults)
      : rig_(rig), recording_(recording), judge_(judge), faults_(faults) {
    if (judge_ != nullptr) marked_.assign(judge_->gate_count(), false);
  }

  void operator()(std::vector<io::console::ConsoleEvent>& out) {
    std::size_t slot = 0;
    for (std::size_t b = 0; b < rig_.buses().size(); ++b) {
      const io::can::CanBus& bus = *rig_.buses()[b];
      const io::can::CanBusSpec& spec = rig_.settings().can[b];
      for (std::size_t i = 0; i < bus.rx_count() && i < spec.rx.size(); ++i, ++slot) {
        if (slot >= timeouts_.size()) timeouts_.resize(slot + 1);
        const io::can::MessageCounters& c = bus.rx_counters(i);
        const std::uint64_t now = load(c.timeouts);
        if (now > timeouts_[slot]) {
          out.push_back({.tick = c.last_tick.load(std::memory_order_relaxed),
                         .level = "warn",
                         .kind = "can",
                         .text = fmt::format("{} on {} timed out (held, then safe values; {} "
                                             "so far)",
                                             spec.rx[i].message, bus.name(), now)});
          timeouts_[slot] = now;
        }
      }
    }
    const double period_s = static_cast<double>(rig_.settings().executive.period) * 1e-9;
    for (std::size_t i = 0; i < marked_.size(); ++i) {
      const runtime::LiveMark m = judge_->live(i);
      if (marked_[i] || m.state == runtime::LiveMark::State::open) continue;
      marked_[i] = true;
      const bool passed = m.state == runtime::LiveMark::State::passed;
      out.push_back({.tick = std::llround(m.time / period_s),
                     .level = passed ? "info" : "error",
                     .kind = "gate",
                     .text = fmt::format("gate '{}' {} at {:.3f} s", judge_->gate_name(i),
                                         passed ? "passed" : "failed", m.time)});
    }
    if (faults_ != nullptr) {  // each fault's start and stop, once
      faults_->marks(marks_);
      seen_.resize(marks_.size());
      for (std::size_t i = 0; i < marks_.size(); ++i) {
        const runtime::FaultMark& m = marks_[i];
        if (m.started_at >= 0 && !seen_[i].started) {
          seen_[i].started = true;
          out.push_back({.tick = m.started_at,
                         .level = "warn",
                         .kind = "fault",
                         .text = fmt::format("fault '{}' on: {}", *m.name, *m.what)});
        }
        if (m.stopped_at >= 0 && !seen_[i].stopped) {
          seen_[i].stopped = true;
          out.push_back({.tick = m.stopped_at,
                         .level = "info",
                         .kind = "fault",
                         .text = fmt::format("fault '{}' off", *m.name)});
        }
      }
    }
    if (recording_ != nullptr && !recorder_error_) {
      const runtime::RecordingCounters c = recording_->counters();
      if (!c.errors.empty()) {
        recorder_error_ = true;
        out.push_back({.level = "error", .kind = "recorder", .text = c.errors});
      }
    }
  }

 private:
  runtime::Rig& rig_;
  const runtime::Recording* recording_;
  const runtime::ScenarioJudge* judge_;
  const runtime::FaultEngine* faults_;
  std::vector<runtime::FaultMark> marks_;
  struct Seen {
    bool started = false, stopped = false;
  };
  std::vector<Seen> seen_;
  std::vector<bool> marked_;
  std::vector<std::uint64_t> timeouts_;
  bool recorder_error_ = false;
};

}  // namespace

json course_json(const config::ScenarioSpec& s) {
  const double c = std::cos(s.start.yaw);
  const double sn = std::sin(s.start.yaw);
  const auto world = [&](double x, double y) {
    return json::array({s.start.x + c * x - sn * y, s.start.y + sn * x + c * y});
  };
  json path = json::array();
  for (const config::CoursePoint& p : s.drive.path) path.push_back(world(p.x, p.y));
  json cones = json::array();
  for (const config::GateSpec& g : s.gates) {
    const auto* lane = std::get_if<config::LaneGate>(&g.check);
    if (lane == nullptr) continue;
    // cones along both edges of the lane, every 3 m and at its ends
    const int n = std::max(1, static_cast<int>(std::ceil((lane->x_max - lane->x_min) / 3.0)));
    for (int i = 0; i <= n; ++i) {
      const double x = lane->x_min + (lane->x_max - lane->x_min) * i / n;
      cones.push_back(world(x, lane->y_min));
      cones.push_back(world(x, lane->y_max));
    }
  }
  return {{"frame", {{"x0", s.start.x}, {"y0", s.start.y}, {"yaw0", s.start.yaw}}},
          {"path", std::move(path)},
          {"cones", std::move(cones)},
          {"x_channel", "vehicle.body.position.x"},
          {"y_channel", "vehicle.body.position.y"}};
}

std::function<std::vector<std::uint64_t>(const io::console::Command&)> console_commands(
    runtime::CommandQueue& queue) {
  return [&queue](const io::console::Command& c) {
    using Kind = io::console::Command::Kind;
    std::vector<std::uint64_t> ids;
    switch (c.kind) {
      case Kind::write:  // all or nothing: every value checked before the first is submitted
        for (const auto& [channel, value] : c.values) queue.check_write(channel, value);
        for (const auto& [channel, value] : c.values) ids.push_back(queue.write(channel, value));
        break;
      case Kind::release:
        for (const std::string& channel : c.channels) queue.check_release(channel);
        for (const std::string& channel : c.channels) ids.push_back(queue.release(channel));
        break;
      case Kind::fault:
        ids.push_back(queue.add_fault_json(c.fault_json));
        break;
      case Kind::clear_fault:
        ids.push_back(queue.clear_fault(c.name));
        break;
      case Kind::marker:
        ids.push_back(queue.marker(c.name));
        break;
    }
    return ids;
  };
}

io::console::ConsoleFeed console_feed(runtime::Rig& rig, const ConsoleRun& run) {
  io::console::ConsoleFeed feed;
  feed.run = {
      .rig = run.rig,
      .scenario = run.scenario != nullptr ? std::optional(run.scenario->name) : std::nullopt,
      .run_id = run.run_id,
      .speed = run.speed.to_string(),
      .realtime = run.speed.realtime(),
      .period_ns = rig.settings().executive.period,
      .start_epoch_ns = run.start_epoch_ns,
      .course = run.scenario != nullptr ? std::optional(course_json(*run.scenario)) : std::nullopt};
  feed.table = &rig.table();
  const runtime::Recording* recording = run.recording;
  feed.counters = [&rig, recording] { return counters_json(rig, recording); };
  if (!rig.buses().empty()) feed.can_view = CanView(rig);
  feed.poll_events = EventWatch(rig, recording, run.judge, run.faults);
  if (const runtime::ScenarioJudge* judge = run.judge) {
    feed.final_events = [judge](std::vector<io::console::ConsoleEvent>& out) {
      for (const runtime::GateResult& g : judge->verdict().gates) {
        const char* verdict = !g.reached ? "not decided" : g.passed ? "PASS" : "FAIL";
        out.push_back({.level = !g.reached ? "warn"
                                : g.passed ? "info"
                                           : "error",
                       .kind = "gate",
                       .text = fmt::format("[{}] {}: {}", verdict, g.name, g.detail)});
      }
    };
  }
  return feed;
}

}  // namespace hil::session
