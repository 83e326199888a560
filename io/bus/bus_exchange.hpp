#pragma once
// The bus in the loop (docs/bus.md "In the tick"), as the rig's stages call it
// (runtime/rig.hpp): in the read phase (slot bus_rx) each input
// region's latest snapshot is taken, checked and applied to its input channels, or, when the
// region stays silent, timed out, held and replaced by its safe values — all counted in ticks,
// so a run stays deterministic; in the write phase (slot bus_tx, after the models and the
// judge) each output region is published with the tick's values.
//
// Where input snapshots come from is a BusInput: the live shared-memory image (ImageInput),
// or a recording (replay). Every snapshot the task consumes goes to the tap as it was read,
// with the tick that consumed it: replaying those at those ticks reproduces the run.
//
// Channels it adds, per input region: bus.<region>.{seq, timeout, lost, rejected,
// writer_restarts} [-]; per output region: bus.<region>.seq [-]. Only what follows from the
// consumed snapshots is a channel (replay reproduces it); what depends on timing (latch
// contention, age) is in RegionCounters.
//
// Thread-safety: create in the setup phase; read()/write() on the RT thread only (no
// allocation, no exceptions, no system call: the clock is read through the vDSO);
// counters() from any thread (relaxed atomics).

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/bus/bus_image.hpp"
#include "io/bus/bus_schema.hpp"
#include "io/bus/bus_spec.hpp"
#include "io/bus/region.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/spsc_ring.hpp"

namespace hil::io::bus {

/// An input snapshot as consumed: the tick that took it and what it read.
struct ConsumedSnapshot {
  std::int64_t tick = 0;
  std::uint32_t region = 0;
  RegionSnapshot snapshot;
};
using SnapshotTap = rt::SpscRing<ConsumedSnapshot>;

/// Where the input regions' snapshots come from. RT: read() must not allocate or block.
class BusInput {
 public:
  enum class Read : std::uint8_t {
    unchanged,   ///< nothing new since the last call
    snapshot,    ///< `out` holds the region's latest snapshot
    contention,  ///< the writer raced every try: keep the previous values
  };
  virtual ~BusInput() = default;
  virtual Read read(std::uint32_t region, std::int64_t tick, RegionSnapshot& out) noexcept = 0;
};

/// The live image's input regions, each read through the latch with at most 3 tries.
class ImageInput final : public BusInput {
 public:
  explicit ImageInput(const BusImage& image);
  Read read(std::uint32_t region, std::int64_t tick, RegionSnapshot& out) noexcept override;
  /// Any thread: reads of `region` that raced the writer three times in a row.
  [[nodiscard]] std::uint64_t contention(std::uint32_t region) const noexcept {
    return contention_[region].load(std::memory_order_relaxed);
  }

 private:
  const BusImage& image_;
  std::vector<std::uint64_t> seen_;  // per region: the latch counter last read
  std::unique_ptr<std::atomic<std::uint64_t>[]> contention_;
};

/// Per region, for `hilsim bus ls`, the console and the run summary.
struct RegionCounters {
  std::atomic<std::uint64_t> applied{0};   ///< snapshots applied (inputs) / published (outputs)
  std::atomic<std::uint64_t> timeouts{0};  ///< times the region went missing
  std::atomic<std::uint64_t> lost{0};      ///< region_seq gaps within a session
  std::atomic<std::uint64_t> rejected{0};  ///< non-finite, out of range, wrong count, tick back
  std::atomic<std::uint64_t> clamped{0};   ///< values clamped to their range
  std::atomic<std::uint64_t> writer_restarts{0};  ///< a new session after the first
  std::atomic<std::uint64_t> safe_requests{0};    ///< snapshots whose writer asked for safe values
  std::atomic<std::int64_t> last_tick{-1};        ///< tick of the last applied snapshot
  std::atomic<bool> timed_out{false};
};

struct BusProblem {
  std::string field;  ///< "regions[1].channels[3]"
  std::string message;
};

class BusExchange {
 public:
  /// Setup: resolves every channel against `table` (not frozen yet: the task adds its status
  /// channels) and builds the schema. nullptr with `problems` when a name does not resolve
  /// or a rule is broken (an input region's channel that is not an input, a channel two input
  /// regions feed, a region over 168 channels).
  [[nodiscard]] static std::unique_ptr<BusExchange> create(const BusSpec& spec,
                                                           rt::ChannelTable& table,
                                                           std::vector<BusProblem>& problems);

  [[nodiscard]] const BusSchema& schema() const noexcept { return schema_; }
  /// Setup: the image output regions are published into (nullptr: none, e.g. in a replay)
  /// and the source of input snapshots (required when the bus has input regions).
  void connect(BusImage* image, BusInput* input) noexcept;
  /// Setup: every consumed snapshot also goes to `tap` (nullptr: none).
  void set_tap(SnapshotTap* tap) noexcept { tap_ = tap; }

  /// RT, read phase: every input region's latest snapshot applied, or its timeout.
  void read(std::int64_t tick) noexcept;
  /// RT, write phase: every output region due at `tick` published.
  void write(std::int64_t tick) noexcept;

  /// Any thread.
  [[nodiscard]] const RegionCounters& counters(std::uint32_t region) const noexcept {
    return *regions_[region].counters;
  }

 private:
  struct Range {
    std::uint32_t index = 0;
    double min = 0.0;
    double max = 0.0;
    bool clamp = false;
  };
  struct Region {
    std::uint32_t id = 0;
    bool input = true;
    std::vector<rt::ChannelId> channels;
    std::vector<Range> ranges;
    std::vector<std::pair<rt::ChannelId, double>> safe;
    std::uint32_t timeout_ticks = 0;
    std::uint32_t hold_ticks = 0;
    std::uint32_t every_ticks = 1;
    // state (RT thread)
    std::uint64_t session = 0;
    std::uint64_t seq = 0;
    std::int64_t writer_tick = 0;
    std::int64_t last_valid_tick = 0;  // the start counts as valid: silence times out from it
    std::uint64_t lost_total = 0, rejected_total = 0, restarts_total = 0, timeouts_total = 0;
    bool timed_out = false;
    RegionWriter writer;
    std::unique_ptr<RegionCounters> counters = std::make_unique<RegionCounters>();
    rt::ChannelId seq_ch{}, timeout_ch{}, lost_ch{}, rejected_ch{}, restarts_ch{};
  };

  BusExchange() = default;
  void consume(Region& r, std::int64_t tick, rt::ChannelTable& table) noexcept;
  void watch_timeout(Region& r, std::int64_t tick, rt::ChannelTable& table) noexcept;
  void apply_safe(const Region& r, rt::ChannelTable& table) const noexcept;

  BusSchema schema_;
  rt::ChannelTable* table_ = nullptr;
  std::vector<Region> regions_;
  BusImage* image_ = nullptr;
  BusInput* input_ = nullptr;
  SnapshotTap* tap_ = nullptr;
  RegionSnapshot scratch_;
  ConsumedSnapshot record_;
  double out_[kMaxRegionValues] = {};
};

}  // namespace hil::io::bus
