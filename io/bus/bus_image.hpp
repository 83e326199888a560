#pragma once
// A bus as its owner holds it (hilsim, or the replica `hilsim bus mirror` keeps on another
// host): one OUT segment with every output region and one IN segment per writer role, laid
// out (bus_layout.hpp), initialized and marked ready. Clients get the segments' fds from the
// attach server (io/bus/client/attach_server.hpp) and parse them with parse_segment().
//
// Thread-safety: construct in the setup phase; region() and heartbeat() are wait-free and may
// be called from the RT thread; the segments' fds from the attach server's thread.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/bus/bus_layout.hpp"
#include "io/bus/bus_schema.hpp"
#include "io/bus/region.hpp"
#include "io/bus/segment.hpp"

namespace hil::io::bus {

class BusImage {
 public:
  /// Creates and initializes the segments (std::system_error when the kernel refuses;
  /// std::invalid_argument for a region over kMaxRegionValues or a name too long).
  /// `generation` 0 picks a random one.
  explicit BusImage(BusSchema schema, std::uint64_t generation = 0);

  [[nodiscard]] const BusSchema& schema() const noexcept { return schema_; }
  [[nodiscard]] std::uint64_t generation() const noexcept { return generation_; }
  [[nodiscard]] std::size_t segment_count() const noexcept { return segments_.size(); }
  [[nodiscard]] const Segment& segment(std::size_t i) const { return segments_.at(i).memory; }
  [[nodiscard]] SegmentKind kind(std::size_t i) const { return segments_.at(i).kind; }
  /// The writer role of IN segment i; "" for the OUT segment.
  [[nodiscard]] const std::string& role(std::size_t i) const { return segments_.at(i).role; }
  /// The IN segment of `role`, or -1.
  [[nodiscard]] int segment_of_role(std::string_view role) const noexcept;
  /// The segment that holds region `id` (bus-wide index).
  [[nodiscard]] std::size_t segment_of_region(std::uint32_t id) const { return home_.at(id); }
  /// Region `id` (bus-wide index) in its segment.
  [[nodiscard]] const RegionView& region(std::uint32_t id) const { return views_.at(id); }

  /// The owner's liveness words (in every segment's header): its tick and CLOCK_MONOTONIC.
  void heartbeat(std::int64_t tick, std::uint64_t mono_ns) noexcept;
  /// Marks every segment closing (the owner is going away; clients stop writing).
  void close() noexcept;

 private:
  struct Home {
    Segment memory;
    SegmentKind kind;
    std::string role;
  };
  BusSchema schema_;
  std::uint64_t generation_ = 0;
  std::vector<Home> segments_;
  std::vector<std::size_t> home_;  // region id → segment index
  std::vector<RegionView> views_;  // region id → its view
};

/// A mapped segment's directory, every offset and count bounds-checked against its size.
struct SegmentDirectory {
  const SegmentHeader* header = nullptr;
  std::span<const RegionDescriptor> regions;
  std::span<const ChannelEntry> channels;
};

/// Parses what a client mapped: the magic, the layout's major version, every size, offset and
/// count checked against `size`. nullopt with `why` for anything out of place (a client never
/// trusts a segment it did not create).
[[nodiscard]] std::optional<SegmentDirectory> parse_segment(const std::byte* data, std::size_t size,
                                                            std::string& why);

/// CLOCK_MONOTONIC in ns (the clock of every *_mono_ns field). No system call (vDSO).
[[nodiscard]] std::uint64_t monotonic_ns() noexcept;
/// 64 random bits from the kernel (getrandom). Setup phase.
[[nodiscard]] std::uint64_t random_u64();

}  // namespace hil::io::bus
