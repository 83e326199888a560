#include "runtime/fmu/fmu_worker.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>
#include <utility>

namespace hil::runtime {

namespace {

constexpr auto kStopGrace = std::chrono::seconds(2);  // then a stuck worker is left detached
// Polls before sleeping on a counter (a pause each, ~23 ns here: ~18 µs): a hand-over within
// them costs no futex wake-up (fmu_bench's round trip: 4.6 µs sleeping at once, 0.18 µs polling)
constexpr int kSpinPolls = 800;

/// A spin-wait hint to the CPU (x86 pause, Arm yield).
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield");
#endif
}

/// Waits until `counter` > `seen` (or `stop`); returns its value.
std::int64_t wait_beyond(const std::atomic<std::int64_t>& counter, std::int64_t seen,
                         const std::atomic<bool>* stop = nullptr) noexcept {
  std::int64_t now = counter.load(std::memory_order_acquire);
  for (int i = 0; i < kSpinPolls && now <= seen; ++i) {
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) return now;
    cpu_relax();
    now = counter.load(std::memory_order_acquire);
  }
  while (now <= seen && (stop == nullptr || !stop->load(std::memory_order_acquire))) {
    counter.wait(now, std::memory_order_acquire);
    now = counter.load(std::memory_order_acquire);
  }
  return now;
}

}  // namespace

struct FmuWorker::Shared {
  std::unique_ptr<io::fmu::Fmu> fmu;
  std::vector<std::uint32_t> input_refs;
  std::vector<std::uint32_t> output_refs;
  std::vector<io::fmu::ValueType> input_types;
  std::vector<io::fmu::ValueType> output_types;
  double step_s = 0.0;
  std::size_t depth = 0;
  std::vector<double> inputs;       ///< depth × inputs, by slot
  std::vector<double> outputs;      ///< depth × outputs, by slot
  std::vector<double> times;        ///< each slot's step start
  std::vector<int> statuses;        ///< each slot's step status
  std::vector<std::int64_t> ended;  ///< each slot's: the step the FMU ended the simulation in
  std::vector<double> end_times;
  std::atomic<std::int64_t> handed{0};
  std::atomic<std::int64_t> finished{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> exited{false};

  [[nodiscard]] std::size_t slot(std::int64_t n) const noexcept {
    return static_cast<std::size_t>(n) % depth;
  }

  /// The worker thread: steps 1, 2, … as they are handed. After a failed step the FMU is not
  /// stepped again (FMI: only terminate); the later steps finish at once with its status.
  void run() noexcept {
    std::int64_t n = 0;
    int failure = 0;
    std::int64_t terminated = 0;
    double terminated_at = 0.0;
    const std::size_t ins = input_refs.size();
    const std::size_t outs = output_refs.size();
    while (true) {
      (void)wait_beyond(handed, n, &stop);
      if (stop.load(std::memory_order_acquire)) break;
      ++n;
      const std::size_t s = slot(n);
      int status = failure;
      if (failure == 0 && terminated == 0) {
        status =
            ins == 0 ? 0 : fmu->set_as_double(input_types, input_refs, {&inputs[s * ins], ins});
        if (status <= 1) status = fmu->do_step(times[s], step_s);
        if (status <= 1 && outs != 0)
          status = fmu->get_as_double(output_types, output_refs, {&outputs[s * outs], outs});
        if (status > 1) failure = status;
        if (status <= 1 && fmu->end_of_step().terminate) {
          terminated = n;
          terminated_at = fmu->end_of_step().last_successful_time;
        }
      }
      statuses[s] = status;
      ended[s] = terminated;
      end_times[s] = terminated_at;
      finished.store(n, std::memory_order_release);
      finished.notify_all();
    }
    exited.store(true, std::memory_order_release);
  }
};

FmuWorker::FmuWorker(std::unique_ptr<io::fmu::Fmu> fmu, std::vector<std::uint32_t> input_refs,
                     std::vector<std::uint32_t> output_refs, double step_s, std::size_t depth,
                     std::vector<io::fmu::ValueType> input_types,
                     std::vector<io::fmu::ValueType> output_types)
    : shared_(std::make_shared<Shared>()) {
  Shared& s = *shared_;
  s.fmu = std::move(fmu);
  s.input_refs = std::move(input_refs);
  s.output_refs = std::move(output_refs);
  s.step_s = step_s;
  s.depth = depth;
  s.inputs.assign(depth * s.input_refs.size(), 0.0);
  s.outputs.assign(depth * s.output_refs.size(), 0.0);
  s.times.assign(depth, 0.0);
  s.statuses.assign(depth, 0);
  s.ended.assign(depth, 0);
  s.end_times.assign(depth, 0.0);
  s.input_types = std::move(input_types);
  s.output_types = std::move(output_types);
  thread_ = std::thread([shared = shared_] { shared->run(); });
}

FmuWorker::~FmuWorker() {
  Shared& s = *shared_;
  s.stop.store(true, std::memory_order_release);
  s.handed.store(std::numeric_limits<std::int64_t>::max(), std::memory_order_release);
  s.handed.notify_all();
  const auto deadline = std::chrono::steady_clock::now() + kStopGrace;
  while (!s.exited.load(std::memory_order_acquire)) {
    if (std::chrono::steady_clock::now() > deadline) {
      // Stuck in the FMU's code: its state (and FMU) stays alive with the thread
      spdlog::warn("FMU {}: its worker thread is stuck in the FMU's step; left running",
                   s.fmu->description().model_name);
      thread_.detach();
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  thread_.join();
}

bool FmuWorker::hand(std::span<const double> inputs, double time, bool wait) noexcept {
  Shared& s = *shared_;
  const std::int64_t n = s.handed.load(std::memory_order_relaxed) + 1;  // only we write it
  const auto oldest = n - static_cast<std::int64_t>(s.depth);           // the step its slot held
  if (oldest > s.finished.load(std::memory_order_acquire)) {
    if (!wait) return false;
    wait_for(oldest);
  }
  const std::size_t slot = s.slot(n);
  const std::size_t ins = s.input_refs.size();
  for (std::size_t i = 0; i < ins; ++i) s.inputs[slot * ins + i] = inputs[i];
  s.times[slot] = time;
  s.handed.store(n, std::memory_order_release);
  s.handed.notify_one();
  return true;
}

std::int64_t FmuWorker::finished() const noexcept {
  return shared_->finished.load(std::memory_order_acquire);
}

void FmuWorker::wait_for(std::int64_t n) const noexcept {
  (void)wait_beyond(shared_->finished, n - 1);
}

std::span<const double> FmuWorker::outputs(std::int64_t n) const noexcept {
  const Shared& s = *shared_;
  const std::size_t outs = s.output_refs.size();
  return {s.outputs.data() + s.slot(n) * outs, outs};
}

int FmuWorker::status(std::int64_t n) const noexcept { return shared_->statuses[shared_->slot(n)]; }

std::int64_t FmuWorker::terminated_in(std::int64_t n) const noexcept {
  return shared_->ended[shared_->slot(n)];
}

double FmuWorker::terminated_at(std::int64_t n) const noexcept {
  return shared_->end_times[shared_->slot(n)];
}

std::size_t FmuWorker::depth() const noexcept { return shared_->depth; }

}  // namespace hil::runtime
