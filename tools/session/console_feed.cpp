#include "tools/session/console_feed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "io/bus/mirror/mirror_health.hpp"
#include "io/scene/scene_json.hpp"
#include "runtime/commands/command_queue.hpp"
#include "runtime/faults/fault_engine.hpp"
#include "runtime/record/recording.hpp"
#include "runtime/rig.hpp"
#include "runtime/scenario/course_layout.hpp"
#include "runtime/scenario/scenario_judge.hpp"
#include "runtime/scene/scene_builder.hpp"
#include "runtime/sensors/lidar_stage.hpp"
#include "tools/session/console_can_view.hpp"

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
  json out = {{"can", std::move(can)}, {"recorder", std::move(recorder)}};
  if (const io::bus::LiveBus* live = rig.live_bus(); live != nullptr && live->mirror() != nullptr) {
    out["bus_mirror"] =
        io::bus::mirror::mirror_health_json(*live->mirror(), live->image().schema());
  }
  return out;
}

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
  const runtime::CourseLayout layout = runtime::course_layout(s);
  const auto points = [](const std::vector<runtime::WorldPoint>& world) {
    json out = json::array();
    for (const runtime::WorldPoint& p : world) out.push_back(json::array({p.x, p.y}));
    return out;
  };
  json path = points(layout.path);
  json cones = points(layout.cones);
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
      case Kind::uds:
        ids.push_back(queue.uds(c.name));
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
      .paced = run.speed.realtime(),
      .period_ns = rig.settings().executive.period,
      .start_epoch_ns = run.start_epoch_ns,
      .course = run.scenario != nullptr ? std::optional(course_json(*run.scenario)) : std::nullopt};
  feed.table = &rig.table();
  const runtime::Recording* recording = run.recording;
  // the 3D scene: the recording's when it records one, else built for the console alone
  feed.scene = recording != nullptr ? recording->scene() : nullptr;
  if (!feed.scene) feed.scene = runtime::build_scene(rig.settings(), run.scenario);
  if (feed.scene) feed.run.scene = io::scene::scene_json(*feed.scene);
  // the lidars' point clouds, live (lidars that collect them: record_points)
  for (const auto& lidar : rig.lidars()) {
    runtime::LidarWorker* worker = lidar->worker();
    if (worker == nullptr || !lidar->spec().record_points) continue;
    feed.clouds.push_back(
        {.topic = "/lidar/" + lidar->spec().name,
         .frame_id = "lidar_" + lidar->spec().name,
         .want = [worker](bool want) { worker->want_live(want); },
         .latest = [worker]() -> std::optional<io::console::LiveCloudSource::Cloud> {
           const runtime::LidarCloud* c = worker->latest_cloud();
           if (c == nullptr) return std::nullopt;
           return io::console::LiveCloudSource::Cloud{.end_ns = c->end_ns,
                                                      .xyzi = {c->xyzi.data(), c->points * 4}};
         }});
  }
  feed.counters = [&rig, recording] { return counters_json(rig, recording); };
  if (!rig.buses().empty()) feed.can_view = can_view(rig);
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
