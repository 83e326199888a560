#pragma once
// What timing decided for a worker at a tick (an FMU on a worker thread, a lidar): the worker's
// result number `taken` (an FMU's step, a lidar's packet job) used late, or (taken = kBehind)
// the worker too far behind. A run records them (runtime/worker_log.hpp) and its replay follows
// them. Thread-safety: a plain value.

#include <cstdint>

namespace hil::runtime {

struct WorkerEvent {
  static constexpr std::int64_t kBehind = -1;
  std::int64_t tick = 0;
  std::int64_t taken = 0;
  friend bool operator==(const WorkerEvent&, const WorkerEvent&) = default;
};

}  // namespace hil::runtime
