#pragma once
// The virtual ECU: the other end of the rig's first CAN bus — the mirrored bus
// (io/can/mapping/can_bus_mirror.hpp) on its own channel table, with the same counters and CRCs —
// and the driver (tools/ecu/driver.hpp) that plays the controller once per ECU cycle
// (20 ms). Three stages — receive (peer_rx), drive (peer_update, every cycle_ticks()), send
// (peer_tx) — so it runs either inside the rig's executive (in process, deterministic, over a
// virtual: bus) or in its own executive (`hilsim ecu`, over a real transport). Until every message
// the rig sends has arrived, and whenever one of them times out, it holds the vehicle (speeds 0,
// brakes and parking brake on). Its own view of the run is judged against the scenario's gates
// (verdict()). In process with a rig that has a driver block, it reads the driver's channels in
// the rig's own table each cycle: while driver.mode is 1 (HUMAN) the driver drives from the
// driver's controls, not the path (Driver::step_human). `hilsim ecu` has no human driver.
//
// Thread-safety: build in the setup phase; the stages on the executive's thread;
// set_silent(), progress() and the bus's counters from any thread; verdict() and
// arrival_monitor() deviations after the executive is done.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/rig/loader.hpp"
#include "config/scenario/scenario_spec.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/stage.hpp"
#include "runtime/scenario/scenario_judge.hpp"
#include "tools/ecu/arrival_monitor.hpp"
#include "tools/ecu/diag/ecu_diagnostics.hpp"
#include "tools/ecu/driver.hpp"

namespace hil::ecu {

struct VirtualEcuSpec {
  /// The ECU's transport; default the rig bus's own URI (virtual:NAME in process).
  std::optional<std::string> can_uri;
  /// The period of the executive the ECU runs in [s]; default the rig's.
  std::optional<double> period_s;
  double cycle_s = 0.02;  ///< the ECU's control cycle (and the cycle of messages without one)
  /// Scenario time starts when the rig is first heard (a separate process that may start
  /// before the rig), not at the ECU's first tick (in process, where both start together).
  bool start_clock_on_input = false;
  /// In process: the rig's channel table, where the ECU reads the driver's channels (the rig's
  /// `driver` block: driver.mode, .steer, .throttle, .brake) on the same thread as the rig's
  /// tick. nullptr (`hilsim ecu`): no human driver.
  const rt::ChannelTable* rig_table = nullptr;
};

/// Live figures for a progress line; any thread (relaxed).
struct EcuProgress {
  double elapsed = 0.0;  ///< the ECU's own running time [s]
  /// Since the inputs were last valid, once they have been [s] (0 before): a rig that ended.
  double silent_for = 0.0;
  double time = 0.0, speed_ref = 0.0, speed_measured = 0.0, cross_track = 0.0, progress = 0.0;
  bool holding = true;  ///< inputs missing: holding the vehicle
  bool human = false;   ///< a human drives (HUMAN mode)
};

class VirtualEcu {
 public:
  /// Setup: opens the transport (std::runtime_error/invalid_argument naming the URI), builds
  /// the mirrored bus and the driver (std::runtime_error naming a channel the drive needs
  /// that the rig's mapping lacks).
  VirtualEcu(const config::RigSpec& rig, const config::ScenarioSpec& scenario,
             const VirtualEcuSpec& options = {});
  ~VirtualEcu();
  VirtualEcu(const VirtualEcu&) = delete;
  VirtualEcu& operator=(const VirtualEcu&) = delete;

  /// Its stages: what the rig sent (read phase), the driver's cycle (update phase; run it
  /// every cycle_ticks() ticks), what it sends (write phase).
  [[nodiscard]] rt::Stage& receive_stage() noexcept { return receive_; }
  [[nodiscard]] rt::Stage& drive_stage() noexcept { return drive_; }
  [[nodiscard]] rt::Stage& send_stage() noexcept { return send_; }

  /// Any thread: stop (true) or resume sending, as a powered-off ECU would.
  void set_silent(bool silent) noexcept { silent_.store(silent, std::memory_order_relaxed); }

  [[nodiscard]] const io::can::CanBus& bus() const noexcept { return *bus_; }
  /// The mirrored bus: rx are the rig's tx messages, tx the rig's rx, in the rig's order.
  [[nodiscard]] const io::can::CanBusSpec& spec() const noexcept { return spec_; }
  [[nodiscard]] const ArrivalMonitor& arrivals() const noexcept { return *arrivals_; }
  [[nodiscard]] const rt::ChannelTable& table() const noexcept { return table_; }
  [[nodiscard]] const Driver& driver() const noexcept { return *driver_; }
  /// Its UDS server and DTCs, when the rig has a diagnostics block on the ECU's bus.
  [[nodiscard]] const diag::EcuDiagnostics* diagnostics() const noexcept {
    return diagnostics_.get();
  }
  /// Control cycles run, and those that held the vehicle for missing inputs. Any thread.
  [[nodiscard]] std::uint64_t cycles() const noexcept {
    return cycles_.load(std::memory_order_relaxed);
  }
  [[nodiscard]] std::uint64_t holding_cycles() const noexcept {
    return holding_.load(std::memory_order_relaxed);
  }
  [[nodiscard]] EcuProgress progress() const noexcept;
  /// The gates judged on what the ECU received (pose, speed) and, for dtc gates, its own
  /// fault memory's statuses (unknown without diagnostics or that DTC). After the run.
  [[nodiscard]] runtime::ScenarioVerdict verdict() const { return judge_.verdict(); }
  /// Ticks of the executive per control cycle.
  [[nodiscard]] std::int64_t cycle_ticks() const noexcept { return cycle_ticks_; }

 private:
  /// Every message the rig sends has arrived and none is overdue (its rx timeout).
  [[nodiscard]] bool inputs_valid(std::int64_t tick) const noexcept;
  void receive(std::int64_t tick) noexcept;
  void drive(std::int64_t tick) noexcept;
  void send(std::int64_t tick) noexcept;
  /// RT: the statuses of the judge's DTCs from the ECU's fault memory into dtc_status_.
  void read_dtc_statuses() noexcept;
  /// RT: driver.mode is HUMAN in the rig's table.
  [[nodiscard]] bool human_drives() const noexcept;
  /// RT: the driver's controls from the rig's table.
  [[nodiscard]] HumanControls human_controls() const noexcept;

  io::can::CanBusSpec spec_;
  rt::ChannelTable table_;
  ArrivalMonitor* arrivals_ = nullptr;  ///< owned by the bus
  std::unique_ptr<io::can::CanBus> bus_;
  std::unique_ptr<Driver> driver_;
  std::unique_ptr<diag::EcuDiagnostics> diagnostics_;
  runtime::ScenarioJudge judge_;
  /// Per judge_.dtc_codes(): its index in the ECU's DtcStore (kNoDtc: none) and its status
  /// this cycle (NaN: unknown); preallocated.
  static constexpr std::size_t kNoDtc = static_cast<std::size_t>(-1);
  std::vector<std::size_t> dtc_index_;
  std::vector<double> dtc_status_;
  /// The driver's channels in the rig's table (in process, a rig with a driver block).
  struct HumanChannels {
    const rt::ChannelTable* table = nullptr;
    rt::ChannelId mode{}, steer{}, throttle{}, brake{};
    double max_speed = 0.0;  ///< [m/s] at full throttle
  };
  std::optional<HumanChannels> human_;
  bool start_on_input_ = false;
  std::vector<std::int64_t> rx_timeout_ticks_;  ///< per received message
  std::int64_t cycle_ticks_ = 1;
  double period_s_ = 0.0;
  std::int64_t first_tick_ = -1;        ///< the ECU's first tick
  std::int64_t clock_start_tick_ = -1;  ///< scenario time 0
  std::int64_t last_valid_tick_ = -1;   ///< the last cycle whose inputs were valid
  std::atomic<bool> silent_{false};
  std::atomic<std::uint64_t> cycles_{0}, holding_{0};
  struct AtomicProgress {
    std::atomic<double> elapsed{0.0}, silent_for{0.0}, time{0.0}, speed_ref{0.0},
        speed_measured{0.0}, cross_track{0.0}, progress{0.0};
    std::atomic<bool> holding{true}, human{false};
  } progress_;
  rt::MethodStage<&VirtualEcu::receive> receive_{*this};
  rt::MethodStage<&VirtualEcu::drive> drive_{*this};
  rt::MethodStage<&VirtualEcu::send> send_{*this};
};

}  // namespace hil::ecu
