#pragma once
// A lidar's ray casting on a thread of its own (docs/sensors.md "Lidar"; the pattern of
// runtime/fmu/fmu_worker.hpp). Jobs are numbered from 1: the RT thread hands job n — the
// packets whose firing windows start in one tick, the sensor's pose and the objects' states
// of that tick — into slot n mod depth of a ring; the worker scans the packets in order
// (models/sensors/lidar/lidar_scanner.hpp), encodes them (io/lidar/vlp16_packet.hpp) into
// the same slot and publishes `finished` = n. Packets depend only on what was handed and on
// the scanner's generators, which the worker alone draws from in job order: never on timing.
// Each completed revolution's points (sensor frame: x, y, z, intensity as float32) go to a
// cloud ring that one non-RT consumer drains (take_cloud / give_back). A second consumer (the
// console's live Foxglove endpoint) sees the newest revolution alone: while it wants clouds
// (want_live), the worker also writes each point into the back buffer of a triple buffer and
// publishes a completed revolution by swapping it with the middle one; the consumer swaps the
// middle with its front (latest_cloud). Neither side waits, the RT thread is not involved, and
// a run nobody watches copies nothing.
//
// Protocol (as FmuWorker): counters `handed` (RT thread) and `finished` (worker),
// release/acquire; the RT thread writes slot n only while n − depth ≤ finished, reads its
// results between finished ≥ n and handing n + depth. The worker sleeps on `handed` (C++20
// atomic wait) and hand() wakes it — unless `polling` (real-time runs): then hand() makes no
// system call and the worker looks for jobs every kPoll, well within a job's latency (a
// packet window, 1.33 ms).
// Thread-safety: hand, finished, wait_for, result and packet on the RT thread; take_cloud and
// give_back on one non-RT thread; latest_cloud on one (other) non-RT thread, want_live on any;
// constructor and destructor in the setup phase.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "io/lidar/vlp16_packet.hpp"
#include "models/sensors/lidar/lidar_scanner.hpp"
#include "models/terrain/terrain.hpp"
#include "models/world/world_object.hpp"
#include "rt_core/spsc_ring.hpp"

namespace hil::runtime {

/// What a finished job measured.
struct LidarJobResult {
  int packets = 0;
  std::uint32_t digest = 0;  ///< of its last packet (io::lidar::packet_digest)
  std::int64_t returns = 0;  ///< returns in its packets
  /// The revolution its packets completed (−1: none) and that revolution's returns.
  std::int64_t completed_revolution = -1;
  std::int64_t revolution_returns = 0;
};

/// One revolution's points, sensor frame, 4 float32 a point (x, y, z [m], reflectivity).
struct LidarCloud {
  std::int64_t revolution = 0;
  std::int64_t end_ns = 0;  ///< when its last firing was [ns of simulation time]
  std::vector<float> xyzi;  ///< capacity for a whole revolution, reserved at setup
  std::size_t points = 0;
};

class LidarWorker {
 public:
  static constexpr std::size_t kDefaultDepth = 64;        ///< jobs: 64 ticks of 250 µs, 16 ms
  static constexpr std::size_t kClouds = 4;               ///< revolutions the consumer may hold
  static constexpr std::chrono::microseconds kPoll{200};  ///< polling: between two looks

  /// Starts the thread. `terrain` (may be null) must outlive the worker; `objects` are the
  /// scenario's shapes, whose states each job carries. `packets_per_job`: the most packets
  /// that start in one tick. `cloud`: collect each revolution's points.
  LidarWorker(const models::lidar::LidarParams& params, std::uint64_t seed,
              const models::Terrain* terrain, double slope_bound,
              std::vector<models::WorldObject> objects, int packets_per_job, bool cloud,
              std::size_t depth = kDefaultDepth);
  ~LidarWorker();
  LidarWorker(const LidarWorker&) = delete;
  LidarWorker& operator=(const LidarWorker&) = delete;

  /// RT: hands the next job: `packets` packets from `first_packet`, measured from `pose`
  /// with the objects at `states`. False (nothing handed) when its slot still holds an
  /// unfinished job; with `wait`, waits for it instead (blocking: not for a real-time run).
  bool hand(std::int64_t first_packet, int packets, const models::SensorPose& pose,
            std::span<const models::ObjectState> states, bool wait) noexcept;
  [[nodiscard]] std::int64_t handed() const noexcept;
  /// Setup: the worker polls for jobs (no wake-up from hand(): for real-time runs).
  void set_polling(bool polling) noexcept;
  /// RT: the newest finished job (0: none).
  [[nodiscard]] std::int64_t finished() const noexcept;
  /// RT: waits until job n has finished (blocking).
  void wait_for(std::int64_t n) const noexcept;
  /// RT: finished job n's result and its i-th packet (valid until job n + depth is handed).
  [[nodiscard]] const LidarJobResult& result(std::int64_t n) const noexcept;
  [[nodiscard]] const io::lidar::Packet& packet(std::int64_t n, int i) const noexcept;

  /// Consumer: the oldest completed revolution not yet taken, or nullptr. Give it back.
  [[nodiscard]] const LidarCloud* take_cloud() noexcept;
  void give_back(const LidarCloud* cloud) noexcept;
  /// Live consumer (any thread): whether it wants clouds — the worker collects the next whole
  /// revolution on. A worker that collects no clouds (`cloud` false) ignores it.
  void want_live(bool want) noexcept;
  /// Live consumer (one thread): the newest revolution completed since the last call, or
  /// nullptr. Valid until the next call.
  [[nodiscard]] const LidarCloud* latest_cloud() noexcept;
  /// Revolutions lost because the consumer held every buffer (any thread).
  [[nodiscard]] std::uint64_t clouds_dropped() const noexcept;

  [[nodiscard]] const models::lidar::LidarScanner& scanner() const noexcept;

 private:
  struct Shared;
  std::unique_ptr<Shared> shared_;
  std::thread thread_;
};

}  // namespace hil::runtime
