#pragma once
// What a run shows on the console beyond the channels and the executive's timing, which the
// console reads itself: a description of the run, and callbacks the console calls on its
// own thread (each optional) for the counters, the CAN view and events. The session layer
// (tools/session/console_feed.cpp) fills it from the rig, its recording and its scenario.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/console/console_protocol.hpp"
#include "io/scene/scene.hpp"
#include "rt_core/channel_condition.hpp"
#include "rt_core/channel_table.hpp"

namespace hil::io::console {

struct RunDescription {
  std::string rig;
  std::optional<std::string> scenario;
  std::string run_id;  ///< unique per run: a page resets when it changes
  std::string speed;   ///< "realtime", "max", "2x"
  /// The loop is paced by the wall clock (--speed realtime), whether or not it runs real-time.
  bool paced = true;
  std::int64_t period_ns = 0;
  std::int64_t start_epoch_ns = 0;
  /// The `course` message without its type (docs/console.md), when the run has a scenario.
  std::optional<nlohmann::json> course;
  /// The `scene` message without its type (docs/console.md, io/scene/scene_json.hpp), when the
  /// run has a vehicle.
  std::optional<nlohmann::json> scene;
};

struct ConsoleEvent {
  std::int64_t tick = -1;  ///< −1: not tied to a tick
  std::string level;       ///< "info", "warn", "error"
  std::string kind;        ///< "overrun", "can", "gate", "recorder", "console", "run"
  std::string text;
};

/// A live point cloud (docs/console.md "Foxglove WebSocket"): a lidar's newest revolution,
/// sent as foxglove.PointCloud on `topic` to whoever subscribes.
struct LiveCloudSource {
  std::string topic;     ///< "/lidar/roof"
  std::string frame_id;  ///< "lidar_roof"
  /// Console thread: whether somebody subscribes (the source collects nothing while not).
  std::function<void(bool)> want;
  /// One revolution: its end [ns of simulation time] and its points (x, y, z, intensity).
  struct Cloud {
    std::int64_t end_ns = 0;
    std::span<const float> xyzi;
  };
  /// Console thread: the newest revolution since the last call (valid until the next), or none.
  std::function<std::optional<Cloud>()> latest;
};

struct ConsoleFeed {
  RunDescription run;
  const rt::ChannelTable* table = nullptr;  ///< frozen; required
  /// The run's 3D scene (io/scene/scene.hpp), shared with its recording: the Foxglove
  /// endpoint's scene topics. nullptr: none (no vehicle).
  std::shared_ptr<const io::scene::Scene> scene;
  /// The lidars' point clouds, advertised after the scene's topics.
  std::vector<LiveCloudSource> clouds;
  /// The status message's "can" array and "recorder" object: {"can": [...], "recorder": …}.
  std::function<nlohmann::json()> counters;
  /// The CAN view's "buses" array (docs/console.md `can`).
  std::function<nlohmann::json()> can_view;
  /// Appends what happened since the last call (CAN timeouts, recorder errors, gates decided
  /// during the run).
  std::function<void(std::vector<ConsoleEvent>&)> poll_events;
  /// Appends what is known once the run is over (every gate's verdict); called once, after
  /// the RT thread is done.
  std::function<void(std::vector<ConsoleEvent>&)> final_events;
  /// Submits an operator's command to the loop (on the console thread): the ids of the loop
  /// commands it became, the last acknowledged last; throws std::invalid_argument saying what
  /// is wrong. Unset: the run takes no commands (replay, timing).
  std::function<std::vector<std::uint64_t>(const Command&)> submit;
  /// The operator's `drive` (docs/console.md "Driving"), on the console thread, from the client
  /// holding the operator lock: the driver's state after it ({"mode": "human" | "auto",
  /// "values": {channel: value}}); throws std::invalid_argument saying what is wrong. Unset:
  /// the run has no driver (no driver block in the rig, a replay).
  std::function<nlohmann::json(const Drive&)> drive;
  /// `submit` takes `uds` commands (the rig has a UDS tester): the channel counting their
  /// replies, which come later (ConsoleServer::command_result); a paused run steps until it
  /// grows.
  std::optional<rt::ChannelId> uds_replies;
  /// A paused run's gate (console thread): step lets `ticks` more through (0: none) and returns
  /// the tick the loop will wait before; with `watched` (a value in the loop's table) the loop
  /// also stops after the first tick whose value meets `condition` (rt::LockStepClock::
  /// step_until); pause/resume; where it waits (the next tick), or −1 while running; the tick it
  /// will wait before (lowered by a watch that fired or a pause). Unset: the run is not paused.
  struct LockStep {
    std::function<std::int64_t(std::int64_t ticks, const double* watched,
                               rt::ChannelCondition condition)>
        step;
    std::function<void(bool pause)> pause;
    std::function<std::int64_t()> waiting_at;
    std::function<std::int64_t()> limit;
  };
  std::optional<LockStep> lock_step;
};

}  // namespace hil::io::console
