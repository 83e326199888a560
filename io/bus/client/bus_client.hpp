#pragma once
// A co-simulator's (or a tool's) handle on a running rig's bus (docs/bus.md "Clients"):
// attaches through the rig's socket (attach_protocol.hpp), maps the segments it is handed,
// checks them (parse_segment and more: it never trusts the other side), and reads any region,
// writes its own role's regions, waits for new snapshots. The C library (hilbus.h) and the
// Python module wrap it.
//
// Thread-safety: read(), wait(), find_*(), regions() and the header/control getters from any
// thread; write() for one region from one thread at a time. Reads are lock-free, allocate
// nothing and make no system call (only wait() and detached() make system calls).

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/bus/bus_layout.hpp"
#include "io/bus/bus_schema.hpp"
#include "io/bus/client/bus_status.hpp"
#include "io/bus/region.hpp"
#include "io/bus/segment.hpp"

namespace hil::io::bus {

struct Welcome;

struct AttachSpec {
  std::string role;                      ///< "" = read only
  std::uint32_t timeout_ms = 1000;       ///< connect + welcome
  std::uint64_t expect_schema_hash = 0;  ///< 0 = any
  std::string client_name;               ///< shows in `hilsim bus ls`
  /// The bus the client was built for: its hash is expected (when expect_schema_hash is 0),
  /// and a mismatch names the first differing region/channel.
  std::optional<BusSchema> expect_schema;
};

struct RegionInfo {
  std::uint32_t id = 0;
  std::string name;
  RegionDirection direction = RegionDirection::input;
  std::string writer;
  std::uint32_t timeout_ticks = 0;
  std::uint64_t expected_period_ns = 0;
  std::vector<ChannelSchema> channels;
};

class BusClient {
 public:
  /// Connects to `endpoint`, sends HELLO, maps what the WELCOME passes. nullptr with `status`
  /// and a one-line `why` on failure. Blocks up to options.timeout_ms. Never throws.
  static std::unique_ptr<BusClient> attach(const std::filesystem::path& endpoint,
                                           const AttachSpec& options, BusStatus& status,
                                           std::string& why);
  ~BusClient();  ///< detach: unmap, close (the lease is freed)
  BusClient(const BusClient&) = delete;
  BusClient& operator=(const BusClient&) = delete;

  [[nodiscard]] const std::string& bus_name() const noexcept { return bus_name_; }
  [[nodiscard]] std::uint64_t generation() const noexcept { return generation_; }
  [[nodiscard]] std::uint64_t schema_hash() const noexcept { return schema_hash_; }
  /// The leased role, "" for a read-only client.
  [[nodiscard]] const std::string& role() const noexcept { return role_; }
  /// The random session id this attach publishes under (0 for readers).
  [[nodiscard]] std::uint64_t session() const noexcept { return session_; }

  /// Every region, indexed by bus-wide id.
  [[nodiscard]] const std::vector<RegionInfo>& regions() const noexcept { return regions_; }
  /// The id of the region named `name`, or -1.
  [[nodiscard]] int find_region(std::string_view name) const noexcept;
  /// The region and value index of a channel; false when no region has it.
  [[nodiscard]] bool find_channel(std::string_view name, std::uint32_t& region,
                                  std::uint32_t& index) const noexcept;
  /// Whether this client may write `region`.
  [[nodiscard]] bool writes(std::uint32_t region) const noexcept;

  /// Latest complete snapshot into `out`: ok; stale when nothing was ever published
  /// (region_seq 0; `out` then holds the empty slot); contention after max_tries (yielding
  /// between tries); bad_argument for an unknown region.
  BusStatus read(std::uint32_t region, RegionSnapshot& out, unsigned max_tries = 1000) const;
  /// Publishes `values` in a region of this client's role (not_writer otherwise) with this
  /// attach's session and region_seq+1; n must equal the region's value count (bad_argument
  /// otherwise). detached once the rig went away (nothing is written then). Wakes waiters
  /// (FUTEX_WAKE) after every publish.
  BusStatus write(std::uint32_t region, const double* values, std::uint32_t n, std::int64_t tick,
                  SlotStatus status = SlotStatus::valid);
  /// Until the latest snapshot's region_seq differs from `after_seq` (ok; a restarted writer
  /// counts as new), or timeout_us passed (timeout), or the rig went away (detached).
  /// FUTEX_WAIT on the region's notify word in slices of at most 100 µs, since hilsim's RT
  /// writer never wakes anyone.
  BusStatus wait(std::uint32_t region, std::uint64_t after_seq, std::uint32_t timeout_us);

  /// The RegionWriter of a region of this client's role, nullptr otherwise: for tests that
  /// stop a writer mid-latch (RegionWriter::publish's `between` hook) and for tools that
  /// publish without write()'s checks. Same thread rule as write().
  [[nodiscard]] RegionWriter* writer(std::uint32_t region) noexcept {
    return writes(region) ? &writers_[region] : nullptr;
  }

  /// True once the rig closed the connection or marked the bus closed (a non-blocking check).
  [[nodiscard]] bool detached() const noexcept;

  /// The owner's header words: its last tick and CLOCK_MONOTONIC heartbeat.
  [[nodiscard]] std::int64_t owner_tick() const noexcept;
  [[nodiscard]] std::uint64_t owner_heartbeat_mono_ns() const noexcept;
  /// The pid of a region's writer lease (RegionControl::writer_pid), 0 = none or bad region.
  [[nodiscard]] std::uint64_t writer_pid(std::uint32_t region) const noexcept;
  /// A region's control line (read-only view; nullptr for a bad id).
  [[nodiscard]] const RegionControl* control(std::uint32_t region) const noexcept;

 private:
  BusClient() = default;
  BusStatus adopt(const Welcome& welcome, std::vector<int>& fds, const AttachSpec& options,
                  std::string& why);

  int socket_ = -1;
  std::string bus_name_;
  std::uint64_t generation_ = 0;
  std::uint64_t schema_hash_ = 0;
  std::string role_;
  std::uint64_t session_ = 0;
  std::vector<Segment> segments_;  ///< as mapped (read-only, plus the role's read-write)
  const SegmentHeader* owner_header_ = nullptr;  ///< the OUT segment's header
  std::vector<RegionInfo> regions_;
  std::vector<RegionView> views_;            ///< by region id
  std::vector<RegionWriter> writers_;        ///< by region id; view().valid() only for this role's
  std::vector<const SegmentHeader*> homes_;  ///< by region id: its segment's header
  mutable std::atomic<bool> detached_{false};
};

}  // namespace hil::io::bus
