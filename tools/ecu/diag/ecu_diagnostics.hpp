#pragma once
// The built-in ECU's diagnostics (docs/diagnostics.md): a UDS server (io/can/uds) behind an
// ISO-TP link (io/can/isotp) on the ECU's CAN bus, its DIDs read from the ECU's channels or
// kept in its memory, its routines acting on channels, and its DTCs set by monitors of what
// the ECU sees (dtc_monitor.hpp) through AUTOSAR Dem-style debouncing. Time is simulated:
// tick × period, so a run and its replay answer alike.
//
// Channels it adds to the ECU's table: diag.dtc.<name>.status [-] (statusOfDTC, 0–255) per
// DTC, diag.session [-] (1 default, 2 programming, 3 extended).
//
// Thread-safety: build in the setup phase; take() and step() on the ECU's executive thread
// (RT: noexcept, no allocation); dtc_status() and the counters from any thread (relaxed).

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "config/diagnostics_spec.hpp"
#include "io/can/isotp/link.hpp"
#include "io/can/mapping/can_bus.hpp"
#include "io/can/uds/data_access.hpp"
#include "io/can/uds/dtc_store.hpp"
#include "io/can/uds/uds_server.hpp"
#include "rt_core/channel_table.hpp"
#include "tools/ecu/diag/dtc_monitor.hpp"

namespace hil::ecu::diag {

class EcuDiagnostics final : public io::can::UnmappedFrameHandler,
                             private io::can::uds::DataAccess {
 public:
  /// Setup: the server, link, store and monitors of `spec` on `bus`, channels resolved in and
  /// added to `table` (not frozen yet). Throws std::invalid_argument naming what does not fit.
  EcuDiagnostics(const config::DiagnosticsSpec& spec, io::can::CanBus& bus, rt::ChannelTable& table,
                 double period_s);
  ~EcuDiagnostics() override;
  EcuDiagnostics(const EcuDiagnostics&) = delete;
  EcuDiagnostics& operator=(const EcuDiagnostics&) = delete;

  /// RT, read phase: a frame on the request or functional id (true: taken).
  [[nodiscard]] bool take(const io::can::CanFrame& frame, std::int64_t tick) noexcept override;
  /// RT, write phase, before the bus's own frames: answers what arrived, runs the monitors
  /// every monitor period, sends the link's due frames, publishes the channels.
  void step(std::int64_t tick) noexcept;

  [[nodiscard]] const io::can::uds::DtcStore& dtcs() const noexcept { return *dtcs_; }
  [[nodiscard]] const io::can::isotp::Counters& link_counters() const noexcept {
    return link_->counters();
  }
  /// Requests answered and responses lost (the link still busy with the previous one).
  [[nodiscard]] std::uint64_t requests() const noexcept {
    return requests_.load(std::memory_order_relaxed);
  }

 private:
  // DataAccess, on the ECU's channels and memory
  bool read(std::size_t did, std::span<std::uint8_t> out) noexcept override;
  bool write(std::size_t did, std::span<const std::uint8_t> data) noexcept override;
  bool start_routine(std::size_t routine, std::span<const std::uint8_t> option) noexcept override;
  bool stop_routine(std::size_t routine) noexcept override;
  std::size_t routine_status(std::size_t routine, io::can::uds::RoutineControlType type,
                             std::span<std::uint8_t> out) noexcept override;
  void respond(std::size_t length, std::int64_t now) noexcept;

  struct Did {
    std::optional<rt::ChannelId> channel;  ///< a channel's value, else `memory`
    double factor = 1.0, offset = 0.0;
    std::vector<std::uint8_t> memory;
  };
  struct Routine {
    rt::ChannelId channel{};
    std::optional<double> forced;  ///< while running: the value held on the channel
  };
  io::can::CanBus& bus_;
  rt::ChannelTable& table_;
  std::int64_t period_ns_ = 0;
  std::int64_t monitor_ticks_ = 1;
  std::uint32_t request_id_ = 0, functional_id_ = 0;
  bool extended_ids_ = false;
  std::vector<Did> dids_;  ///< in the server's DID order (its spec's dids)
  std::vector<Routine> routines_;
  std::unique_ptr<io::can::uds::DtcStore> dtcs_;
  std::unique_ptr<io::can::uds::UdsServer> server_;
  std::unique_ptr<io::can::isotp::Link> link_;
  std::vector<std::unique_ptr<DtcMonitor>> monitors_;
  std::vector<rt::ChannelId> dtc_status_;
  rt::ChannelId session_{};
  std::vector<std::uint8_t> response_;
  std::array<io::can::CanFrame, 16> outbox_{};
  std::atomic<std::uint64_t> requests_{0};
};

}  // namespace hil::ecu::diag
