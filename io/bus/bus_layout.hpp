#pragma once
// The bytes of a bus segment (docs/bus.md "Memory layout"): what hilsim and every client map.
// Little-endian, every field at a fixed offset (static_assert below), every mutable word a
// 64-bit (or the futex's 32-bit) word accessed through std::atomic_ref. A C client reads the
// same layout with __atomic builtins (io/bus/client/hilbus.h).
//
//   page 0            SegmentHeader (written once, before the fd is handed out)
//   directory_offset  RegionDescriptor[region_count], then ChannelEntry[channel_count]
//   control_offset    per region: RegionControl (one cache line)
//   slot_offset       per region: two slots (the latch's copies), each SlotHeader + values
//
// A segment holds either every output region (kind OUT: hilsim writes, clients map it
// read-only) or the input regions of one writer role (kind IN).

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace hil::io::bus {

inline constexpr char kMagic[8] = {'H', 'S', 'I', 'M', 'B', 'U', 'S', '\0'};
inline constexpr std::uint16_t kLayoutMajor = 1;  ///< incompatible changes
inline constexpr std::uint16_t kLayoutMinor = 0;  ///< additions
inline constexpr std::size_t kHeaderBytes = 4096;
inline constexpr std::size_t kCacheLine = 64;
/// Values per region: one snapshot fits one UDP datagram at MTU 1500 over IPv6 (§ wire).
inline constexpr std::size_t kMaxRegionValues = 168;
inline constexpr std::size_t kRegionNameBytes = 48;   ///< NUL-terminated
inline constexpr std::size_t kChannelNameBytes = 72;  ///< NUL-terminated
inline constexpr std::size_t kUnitBytes = 16;         ///< NUL-terminated
inline constexpr std::size_t kRoleBytes = 48;         ///< NUL-terminated

enum class SegmentKind : std::uint32_t { out = 0, in = 1 };
enum class SegmentState : std::uint64_t { init = 0, ready = 1, closing = 2, closed = 3 };
/// Who writes a region: hilsim's RT thread (output) or one co-simulator role (input).
enum class RegionDirection : std::uint32_t { output = 0, input = 1 };
/// SlotHeader::status.
enum class SlotStatus : std::uint64_t { valid = 0, not_initialized = 1, safe_state = 2 };

struct SegmentHeader {
  char magic[8];
  std::uint16_t layout_major;
  std::uint16_t layout_minor;
  std::uint32_t header_bytes;
  std::uint64_t segment_bytes;
  std::uint64_t bus_schema_hash;  ///< FNV-1a-64 of the whole bus (bus_schema.hpp)
  std::uint64_t generation;       ///< random per creation: a restarted hilsim differs
  std::uint64_t created_unix_ns;
  std::uint32_t owner_pid;  ///< advisory
  std::uint32_t region_count;
  std::uint32_t directory_offset;
  std::uint32_t directory_bytes;
  std::uint32_t channel_count;
  SegmentKind kind;
  std::uint64_t state;                    ///< atomic SegmentState
  std::uint64_t owner_heartbeat_mono_ns;  ///< atomic; hilsim: CLOCK_MONOTONIC of its last tick
  std::uint64_t owner_tick;               ///< atomic; hilsim: its last tick
  char role[kRoleBytes];                  ///< the writer role of an IN segment; "" for OUT
  char bus_name[kRegionNameBytes];
};
static_assert(offsetof(SegmentHeader, layout_major) == 8);
static_assert(offsetof(SegmentHeader, header_bytes) == 12);
static_assert(offsetof(SegmentHeader, segment_bytes) == 16);
static_assert(offsetof(SegmentHeader, bus_schema_hash) == 24);
static_assert(offsetof(SegmentHeader, generation) == 32);
static_assert(offsetof(SegmentHeader, created_unix_ns) == 40);
static_assert(offsetof(SegmentHeader, owner_pid) == 48);
static_assert(offsetof(SegmentHeader, region_count) == 52);
static_assert(offsetof(SegmentHeader, directory_offset) == 56);
static_assert(offsetof(SegmentHeader, directory_bytes) == 60);
static_assert(offsetof(SegmentHeader, channel_count) == 64);
static_assert(offsetof(SegmentHeader, kind) == 68);
static_assert(offsetof(SegmentHeader, state) == 72);
static_assert(offsetof(SegmentHeader, owner_heartbeat_mono_ns) == 80);
static_assert(offsetof(SegmentHeader, owner_tick) == 88);
static_assert(offsetof(SegmentHeader, role) == 96);
static_assert(offsetof(SegmentHeader, bus_name) == 144);
static_assert(sizeof(SegmentHeader) == 192);

struct RegionDescriptor {
  char name[kRegionNameBytes];
  std::uint32_t id;  ///< the region's index in the whole bus (not in this segment)
  std::uint32_t value_count;
  RegionDirection direction;
  std::uint32_t value_type;  ///< 1 = f64, the only one
  std::uint32_t slot_count;  ///< 2: the latch's copies
  std::uint32_t flags;
  std::uint64_t region_schema_hash;
  std::uint64_t control_offset;  ///< of its RegionControl, from the segment's start
  std::uint64_t slot_offset;     ///< of its first slot
  std::uint64_t slot_stride;     ///< bytes from slot 0 to slot 1
  std::uint64_t expected_period_ns;
  std::uint32_t timeout_ticks;  ///< 0: never times out
  std::uint32_t first_channel;  ///< index of its first ChannelEntry in this segment
  char writer[kRoleBytes];      ///< the writer role; "hilsim" for outputs
  std::uint64_t reserved[2];
};
static_assert(offsetof(RegionDescriptor, id) == 48);
static_assert(offsetof(RegionDescriptor, value_count) == 52);
static_assert(offsetof(RegionDescriptor, direction) == 56);
static_assert(offsetof(RegionDescriptor, region_schema_hash) == 72);
static_assert(offsetof(RegionDescriptor, control_offset) == 80);
static_assert(offsetof(RegionDescriptor, slot_offset) == 88);
static_assert(offsetof(RegionDescriptor, slot_stride) == 96);
static_assert(offsetof(RegionDescriptor, expected_period_ns) == 104);
static_assert(offsetof(RegionDescriptor, timeout_ticks) == 112);
static_assert(offsetof(RegionDescriptor, first_channel) == 116);
static_assert(offsetof(RegionDescriptor, writer) == 120);
static_assert(sizeof(RegionDescriptor) == 184);

struct ChannelEntry {
  char name[kChannelNameBytes];
  char unit[kUnitBytes];
  std::uint32_t region;  ///< bus-wide region id
  std::uint32_t index;   ///< position in the region's values
};
static_assert(offsetof(ChannelEntry, unit) == 72);
static_assert(offsetof(ChannelEntry, region) == 88);
static_assert(sizeof(ChannelEntry) == 96);

/// One cache line per region; every field atomic.
struct alignas(kCacheLine) RegionControl {
  std::uint64_t latch_seq;    ///< the latch counter (rt_core/latch.hpp)
  std::uint64_t session_id;   ///< the current writer's session (informational)
  std::uint32_t notify_word;  ///< futex word: +1 per publish (hilbus_wait)
  std::uint32_t waiters;      ///< readers blocked on notify_word
  std::uint64_t writer_heartbeat_mono_ns;
  std::uint64_t lease_epoch;  ///< +1 each time the writer's lease is granted
  std::uint64_t writer_pid;   ///< advisory
  std::uint64_t reserved[2];
};
static_assert(offsetof(RegionControl, session_id) == 8);
static_assert(offsetof(RegionControl, notify_word) == 16);
static_assert(offsetof(RegionControl, waiters) == 20);
static_assert(offsetof(RegionControl, writer_heartbeat_mono_ns) == 24);
static_assert(offsetof(RegionControl, lease_epoch) == 32);
static_assert(sizeof(RegionControl) == kCacheLine);

/// The head of each slot (one latch copy): 8 words, then value_count f64 values.
struct SlotHeader {
  std::uint64_t region_seq;  ///< ≥ 1, +1 per publish within a session
  std::int64_t tick;         ///< the writer's step (inputs) or hilsim's tick (outputs)
  std::uint64_t publish_mono_ns;
  std::uint64_t session_id;  ///< random per writer attach; a new one = a restarted writer
  std::uint64_t status;      ///< SlotStatus
  std::uint64_t value_count;
  std::uint64_t source_age_ns;  ///< mirrored replicas: age at the remote sender + transit
  std::uint64_t reserved;
};
static_assert(sizeof(SlotHeader) == 64);
inline constexpr std::size_t kSlotHeaderWords = sizeof(SlotHeader) / 8;

/// Bytes of one slot for `n` values, a whole number of cache lines.
[[nodiscard]] constexpr std::size_t slot_stride(std::size_t n) noexcept {
  return (sizeof(SlotHeader) + 8 * n + kCacheLine - 1) / kCacheLine * kCacheLine;
}

/// The name of a fixed-size NUL-terminated field (up to its first NUL).
[[nodiscard]] inline std::string_view field_text(const char* field, std::size_t size) noexcept {
  std::size_t n = 0;
  while (n < size && field[n] != '\0') ++n;
  return {field, n};
}

}  // namespace hil::io::bus
