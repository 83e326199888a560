#pragma once
// One lidar of the rig in the tick (docs/sensors.md "Lidar"): a stage of the sensors slot,
// after the vehicle and the objects have moved. Every tick k it
//   1. hands its worker (lidar_worker.hpp) one job: the packets whose firing windows start in
//      [k·dt, (k+1)·dt), with the sensor's pose (vehicle.body.position.*, .roll/.pitch/.yaw and
//      the mount) and the objects' states of tick k — a whole packet is measured from the pose
//      of the tick its window starts in;
//   2. takes the jobs that are due: a job is due at the first tick at or after the end of its
//      last packet's firing window (the real sensor sends a packet when its 12 blocks are
//      fired: a fixed latency of one packet window, 1.33 ms for the VLP-16), posts their
//      packets to the UDP sender (io/lidar/lidar_sender.hpp) and writes the channels
//        sensor.lidar.<name>.packets  packets taken since the start
//        sensor.lidar.<name>.returns  returns in the last completed revolution
//        sensor.lidar.<name>.late     jobs not finished when due (real-time runs)
//        sensor.lidar.<name>.digest   FNV-1a of the last packet taken (an integer < 2^32)
//      so the telemetry — and `hilsim replay` — compares the lidar bit for bit.
// Determinism as FmuStage: a run not paced by real time waits for the worker, so every job is
// taken when due. A real-time run never waits: a job not finished when due is late (taken at
// the first tick it is), a job refused because the worker is `depth` jobs behind is lost; both
// are events (LidarEvent) the run records and a replay follows (follow()).
// Thread-safety: run() on the executive's thread; take_events() from one non-RT thread;
// take_cloud()/give_back() from one (other) non-RT thread; the rest in the setup phase.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "config/lidar_spec.hpp"
#include "io/lidar/lidar_sender.hpp"
#include "models/terrain/terrain.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/spsc_ring.hpp"
#include "rt_core/stage.hpp"
#include "runtime/sensors/lidar_worker.hpp"
#include "runtime/worker_event.hpp"

namespace hil::runtime {

class WorldObjectsStage;  // runtime/world/world_objects_stage.hpp

/// What timing decided for a lidar at a tick: job `taken` was due and not finished (late; the
/// take stops there), or (taken = kBehind) the tick's job was refused (the worker was `depth`
/// jobs behind; its packets are lost).
using LidarEvent = WorkerEvent;

class LidarStage final : public rt::Stage {
 public:
  /// Setup: adds the channels to `table` (not yet frozen). `terrain` (may be null) must
  /// outlive the stage. `send`: open the spec's URI (false: replays, tests — nothing leaves).
  LidarStage(config::LidarSpec spec, std::shared_ptr<const models::Terrain> terrain,
             std::uint64_t master_seed, rt::ChannelTable& table, std::int64_t period_ns,
             bool send = true);
  ~LidarStage() override;
  LidarStage(const LidarStage&) = delete;
  LidarStage& operator=(const LidarStage&) = delete;

  /// Setup, after the table is frozen: resolves the vehicle's pose channels and starts the
  /// worker, seeing `world`'s objects (nullptr: none). std::out_of_range for a missing channel.
  void bind(const rt::ChannelTable& table, const WorldObjectsStage* world);
  /// Setup: `realtime` — paced by real time, the tick never waits for the worker.
  void set_realtime(bool realtime) noexcept;
  /// Setup (replay): the run's events for this lidar, applied at their ticks.
  void follow(std::vector<LidarEvent> events);

  /// RT: one tick (see the file comment).
  void run(const rt::TickContext& c) noexcept override;

  /// One non-RT thread: appends the events since the last call; returns how many.
  std::size_t take_events(std::vector<LidarEvent>& out);
  /// The point clouds (lidar_worker.hpp); null before bind().
  [[nodiscard]] LidarWorker* worker() noexcept { return worker_.get(); }
  [[nodiscard]] const config::LidarSpec& spec() const noexcept { return spec_; }
  [[nodiscard]] std::uint64_t packets() const noexcept { return packets_; }
  [[nodiscard]] std::uint64_t late() const noexcept { return late_; }
  [[nodiscard]] std::uint64_t lost() const noexcept { return lost_; }
  /// "lidar roof: 7535 packets (753.5/s), 28934 returns a revolution, 0 late, 0 lost, 7535
  /// sent on udp://127.0.0.1:2368".
  [[nodiscard]] std::string report(double run_s) const;

 private:
  void hand(const rt::TickContext& c) noexcept;
  void take(std::int64_t tick) noexcept;
  void apply(std::int64_t job) noexcept;
  [[nodiscard]] const LidarEvent* followed(std::int64_t tick, bool behind) const noexcept;

  config::LidarSpec spec_;
  std::shared_ptr<const models::Terrain> terrain_;
  std::uint64_t seed_;
  std::int64_t period_ns_;
  std::int64_t packet_ns_;  ///< one packet's firing window [ns]
  int packets_per_job_;
  std::unique_ptr<io::lidar::LidarSender> sender_;
  std::unique_ptr<LidarWorker> worker_;
  const WorldObjectsStage* world_ = nullptr;
  rt::ChannelTable* table_ = nullptr;
  struct Ids {
    rt::ChannelId x, y, z, roll, pitch, yaw;
  } pose_{};
  rt::ChannelId packets_id_{}, returns_id_{}, late_id_{}, digest_id_{};
  bool realtime_ = false;
  std::int64_t next_packet_ = 0;
  std::vector<std::int64_t> due_;  ///< each job's due tick, by slot (the RT thread's)
  std::int64_t taken_ = 0;         ///< the last job taken
  std::int64_t late_job_ = 0;      ///< the last job counted late
  std::uint64_t packets_ = 0, late_ = 0, lost_ = 0;
  std::int64_t last_returns_ = 0;
  rt::SpscRing<LidarEvent> events_{4096};
  std::optional<std::vector<LidarEvent>> followed_;
  std::size_t next_followed_ = 0;
};

}  // namespace hil::runtime
