#include "runtime/sensors/lidar_worker.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <thread>

namespace hil::runtime {

namespace lidar = models::lidar;

namespace {

constexpr int kSpinPolls = 800;  // as fmu_worker.cpp: a quick hand-over costs no futex wake

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield");
#endif
}

/// Waits until `counter` > `seen`; returns its value.
std::int64_t wait_beyond(const std::atomic<std::int64_t>& counter, std::int64_t seen) noexcept {
  std::int64_t now = counter.load(std::memory_order_acquire);
  for (int i = 0; i < kSpinPolls && now <= seen; ++i) {
    cpu_relax();
    now = counter.load(std::memory_order_acquire);
  }
  while (now <= seen) {
    counter.wait(now, std::memory_order_acquire);
    now = counter.load(std::memory_order_acquire);
  }
  return now;
}

struct Job {
  std::int64_t first_packet = 0;
  int packets = 0;
  models::SensorPose pose;
};

}  // namespace

struct LidarWorker::Shared {
  lidar::LidarScanner scanner;
  const models::Terrain* terrain;
  double slope_bound;
  std::vector<models::WorldObject> objects;
  std::size_t depth;
  int packets_per_job;
  bool collect;
  std::vector<Job> jobs;                    ///< by slot
  std::vector<models::ObjectState> states;  ///< depth × objects
  std::vector<io::lidar::Packet> packets;   ///< depth × packets_per_job
  std::vector<LidarJobResult> results;      ///< by slot
  lidar::PacketScan scan;                   ///< the worker's scratch
  std::atomic<std::int64_t> handed{0};
  std::atomic<std::int64_t> finished{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> polling{false};
  std::atomic<std::uint32_t> bell{0};  ///< rung by hand() (not polling), set_polling(), stop
  // The revolution being measured and the clouds
  std::int64_t revolution = 0;
  std::int64_t revolution_returns = 0;
  std::array<LidarCloud, kClouds> clouds;
  rt::SpscRing<int> full{kClouds};  ///< worker → consumer
  rt::SpscRing<int> free{kClouds};  ///< consumer → worker
  int filling = -1;                 ///< the cloud the worker fills (−1: none free)
  std::atomic<std::uint64_t> clouds_dropped{0};
  // The live consumer's triple buffer: the worker fills live[live_back] (when live_filling),
  // the middle index (kFresh: not yet seen) is exchanged, the consumer reads live[live_front]
  static constexpr int kFresh = 4;
  std::array<LidarCloud, 3> live;
  std::atomic<bool> live_wanted{false};
  std::atomic<int> live_middle{1};
  int live_back = 0;          ///< the worker's
  bool live_filling = false;  ///< the worker's: this revolution goes to the live consumer
  int live_front = 2;         ///< the consumer's

  Shared(const lidar::LidarParams& params, std::uint64_t seed, const models::Terrain* t,
         double slope, std::vector<models::WorldObject> objs, int per_job, bool cloud,
         std::size_t d)
      : scanner(params, seed),
        terrain(t),
        slope_bound(slope),
        objects(std::move(objs)),
        depth(d),
        packets_per_job(per_job),
        collect(cloud),
        jobs(d),
        states(d * objects.size()),
        packets(d * static_cast<std::size_t>(per_job)),
        results(d) {
    if (collect) {
      const lidar::ScanPattern& sp = scanner.pattern();
      // Firings in a revolution, plus a packet's worth: the capacity no revolution exceeds
      const auto firings =
          static_cast<std::size_t>(std::ceil(1.0 / (sp.rotation_hz * sp.preset->firing_cycle_s)) +
                                   sp.preset->firings_per_packet());
      for (LidarCloud& c : clouds) {
        c.xyzi.resize(firings * static_cast<std::size_t>(sp.preset->beams()) * 4);
      }
      for (LidarCloud& c : live) c.xyzi.resize(clouds[0].xyzi.size());
      for (int i = 1; i < static_cast<int>(kClouds); ++i) (void)free.try_push(i);
      filling = 0;
    }
  }

  [[nodiscard]] std::size_t slot(std::int64_t n) const noexcept {
    return static_cast<std::size_t>(n) % depth;
  }

  [[nodiscard]] std::int64_t revolution_end_ns(std::int64_t rev) const noexcept {
    return std::llround(static_cast<double>(rev + 1) / scanner.pattern().rotation_hz * 1e9);
  }

  /// Appends a point to `c` unless it is full.
  static void add_point(LidarCloud& c, const std::array<float, 4>& point) noexcept {
    if ((c.points + 1) * 4 > c.xyzi.size()) return;
    std::copy(point.begin(), point.end(),
              c.xyzi.begin() + static_cast<std::ptrdiff_t>(c.points * 4));
    ++c.points;
  }

  /// The revolution in progress is complete: hand its cloud over, start the next one.
  void complete_revolution(std::int64_t next, LidarJobResult& r) noexcept {
    r.completed_revolution = revolution;
    r.revolution_returns = revolution_returns;
    if (collect) {
      if (live_filling) {  // publish: the middle buffer becomes the next back
        LidarCloud& l = live[static_cast<std::size_t>(live_back)];
        l.revolution = revolution;
        l.end_ns = revolution_end_ns(revolution);
        live_back = live_middle.exchange(live_back | kFresh, std::memory_order_acq_rel) & ~kFresh;
      }
      live_filling = live_wanted.load(std::memory_order_relaxed);  // a setting: no data with it
      live[static_cast<std::size_t>(live_back)].points = 0;
      if (filling >= 0) {
        LidarCloud& c = clouds[static_cast<std::size_t>(filling)];
        c.revolution = revolution;
        c.end_ns = revolution_end_ns(revolution);
        (void)full.try_push(filling);  // never full: kClouds buffers in all
      } else {
        clouds_dropped.fetch_add(1, std::memory_order_relaxed);  // a statistic
      }
      int next_cloud = -1;
      filling = free.try_pop(next_cloud) ? next_cloud : -1;
      if (filling >= 0) clouds[static_cast<std::size_t>(filling)].points = 0;
    }
    revolution = next;
    revolution_returns = 0;
  }

  void measure(std::int64_t n) noexcept {
    const std::size_t s = slot(n);
    const Job& job = jobs[s];
    const std::size_t no = objects.size();
    const lidar::RayWorld world{.terrain = terrain,
                                .slope_bound = slope_bound,
                                .objects = objects,
                                .states = {states.data() + s * no, no}};
    LidarJobResult r;
    const lidar::ScanPattern& sp = scanner.pattern();
    const int beams = sp.preset->beams();
    const bool vlp16 = sp.preset->vlp16_packets;
    for (int i = 0; i < job.packets; ++i) {
      const std::int64_t p = job.first_packet + i;
      scanner.scan(p, job.pose, world, scan);
      io::lidar::Packet& out = packets[s * static_cast<std::size_t>(packets_per_job) + i];
      const auto t_ns = std::llround(scan.start_s * 1e9);
      io::lidar::encode_vlp16({.azimuth = scan.block_azimuth,
                               .distance = scan.distance,
                               .reflectivity = scan.reflectivity,
                               .timestamp_us = io::lidar::timestamp_past_hour(t_ns),
                               .product = vlp16 ? io::lidar::kProductVlp16 : std::uint8_t{0}},
                              out);
      r.digest = io::lidar::packet_digest(out);
      ++r.packets;
      for (int j = 0; j < lidar::kReturnsPerPacket; ++j) {
        const std::int64_t rev = sp.revolution(sp.fire_time(p, j / beams, j % beams));
        if (rev > revolution) complete_revolution(rev, r);
        if (scan.distance[j] == 0) continue;
        ++r.returns;
        ++revolution_returns;
        if (filling < 0 && !live_filling) continue;
        const double range = scan.distance[j] * lidar::kRangeUnit;
        const double el = scanner.elevation_deg(j) * (std::numbers::pi / 180.0);
        const double az = static_cast<double>(scan.azimuth_deg[j]) * (std::numbers::pi / 180.0);
        const std::array<float, 4> v{static_cast<float>(range * std::cos(el) * std::cos(az)),
                                     static_cast<float>(-range * std::cos(el) * std::sin(az)),
                                     static_cast<float>(range * std::sin(el)),
                                     static_cast<float>(scan.reflectivity[j])};
        if (filling >= 0) add_point(clouds[static_cast<std::size_t>(filling)], v);
        if (live_filling) add_point(live[static_cast<std::size_t>(live_back)], v);
      }
    }
    results[s] = r;
  }

  /// Waits for job n + 1: spinning a little, then asleep until the bell rings (hand(),
  /// set_polling(), the destructor) or, polling, looking every kPoll. False: stop.
  bool next_job(std::int64_t n) noexcept {
    for (int i = 0; i < kSpinPolls; ++i) {
      if (handed.load(std::memory_order_acquire) > n) return true;
      cpu_relax();
    }
    while (true) {
      const std::uint32_t rung = bell.load(std::memory_order_acquire);
      if (stop.load(std::memory_order_acquire)) return false;
      if (handed.load(std::memory_order_acquire) > n) return true;
      if (polling.load(std::memory_order_acquire)) {
        std::this_thread::sleep_for(kPoll);
      } else {
        bell.wait(rung, std::memory_order_acquire);  // returns once the bell has rung since
      }
    }
  }

  void run() noexcept {
    std::int64_t n = 0;
    while (true) {
      if (!next_job(n)) return;
      ++n;
      measure(n);
      finished.store(n, std::memory_order_release);  // release: the slot's results
      finished.notify_all();
    }
  }
};

LidarWorker::LidarWorker(const lidar::LidarParams& params, std::uint64_t seed,
                         const models::Terrain* terrain, double slope_bound,
                         std::vector<models::WorldObject> objects, int packets_per_job, bool cloud,
                         std::size_t depth)
    : shared_(std::make_unique<Shared>(params, seed, terrain, slope_bound, std::move(objects),
                                       packets_per_job, cloud, depth)) {
  thread_ = std::thread([s = shared_.get()] { s->run(); });
}

LidarWorker::~LidarWorker() {
  shared_->stop.store(true, std::memory_order_release);
  shared_->bell.fetch_add(1, std::memory_order_release);
  shared_->bell.notify_all();
  thread_.join();
}

bool LidarWorker::hand(std::int64_t first_packet, int packets, const models::SensorPose& pose,
                       std::span<const models::ObjectState> states, bool wait) noexcept {
  Shared& s = *shared_;
  const std::int64_t n = s.handed.load(std::memory_order_relaxed) + 1;  // only we write it
  const std::int64_t oldest = n - static_cast<std::int64_t>(s.depth);
  if (oldest > s.finished.load(std::memory_order_acquire)) {
    if (!wait) return false;
    wait_for(oldest);
  }
  const std::size_t slot = s.slot(n);
  s.jobs[slot] = {
      .first_packet = first_packet, .packets = std::min(packets, s.packets_per_job), .pose = pose};
  const std::size_t no = s.objects.size();
  for (std::size_t i = 0; i < no && i < states.size(); ++i) s.states[slot * no + i] = states[i];
  s.handed.store(n, std::memory_order_release);      // release: the slot's inputs
  if (!s.polling.load(std::memory_order_relaxed)) {  // a setting: no ordering needed
    s.bell.fetch_add(1, std::memory_order_release);
    s.bell.notify_one();
  }
  return true;
}

std::int64_t LidarWorker::handed() const noexcept {
  return shared_->handed.load(std::memory_order_relaxed);
}

void LidarWorker::set_polling(bool polling) noexcept {
  shared_->polling.store(polling, std::memory_order_release);
  shared_->bell.fetch_add(1, std::memory_order_release);  // a worker asleep now polls
  shared_->bell.notify_all();
}

std::int64_t LidarWorker::finished() const noexcept {
  return shared_->finished.load(std::memory_order_acquire);
}

void LidarWorker::wait_for(std::int64_t n) const noexcept {
  std::int64_t now = shared_->finished.load(std::memory_order_acquire);
  while (now < n) now = wait_beyond(shared_->finished, now);
}

const LidarJobResult& LidarWorker::result(std::int64_t n) const noexcept {
  return shared_->results[shared_->slot(n)];
}

const io::lidar::Packet& LidarWorker::packet(std::int64_t n, int i) const noexcept {
  return shared_->packets[shared_->slot(n) * static_cast<std::size_t>(shared_->packets_per_job) +
                          static_cast<std::size_t>(i)];
}

const LidarCloud* LidarWorker::take_cloud() noexcept {
  int i = -1;
  return shared_->full.try_pop(i) ? &shared_->clouds[static_cast<std::size_t>(i)] : nullptr;
}

void LidarWorker::give_back(const LidarCloud* cloud) noexcept {
  (void)shared_->free.try_push(static_cast<int>(cloud - shared_->clouds.data()));
}

void LidarWorker::want_live(bool want) noexcept {
  shared_->live_wanted.store(want, std::memory_order_relaxed);
}

const LidarCloud* LidarWorker::latest_cloud() noexcept {
  Shared& s = *shared_;
  if ((s.live_middle.load(std::memory_order_relaxed) & Shared::kFresh) == 0) return nullptr;
  // acquire: the worker's points before its exchange; release: our reads of the old front
  s.live_front = s.live_middle.exchange(s.live_front, std::memory_order_acq_rel) & ~Shared::kFresh;
  return &s.live[static_cast<std::size_t>(s.live_front)];
}

std::uint64_t LidarWorker::clouds_dropped() const noexcept {
  return shared_->clouds_dropped.load(std::memory_order_relaxed);
}

const lidar::LidarScanner& LidarWorker::scanner() const noexcept { return shared_->scanner; }

}  // namespace hil::runtime
