#include "io/bus/bus_image.hpp"

#include <sys/random.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <system_error>

namespace hil::io::bus {

namespace {

void copy_text(char* field, std::size_t size, std::string_view text, std::string_view what) {
  if (text.size() >= size) {
    throw std::invalid_argument(std::string(what) + " \"" + std::string(text) +
                                "\" is longer than " + std::to_string(size - 1) + " bytes");
  }
  std::memcpy(field, text.data(), text.size());
  field[text.size()] = '\0';
}

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

std::uint64_t unix_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count());
}

}  // namespace

std::uint64_t monotonic_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

std::uint64_t random_u64() {
  std::uint64_t v = 0;
  if (getrandom(&v, sizeof v, 0) != static_cast<ssize_t>(sizeof v)) {
    throw std::system_error(errno, std::generic_category(), "getrandom");
  }
  return v;
}

BusImage::BusImage(BusSchema schema, std::uint64_t generation)
    : schema_(std::move(schema)), generation_(generation != 0 ? generation : random_u64()) {
  const std::uint64_t bus_hash = schema_.hash();
  const std::uint64_t created = unix_ns();
  // Which segment holds which regions: OUT first, then one IN per writer role
  std::vector<std::pair<SegmentKind, std::string>> homes{{SegmentKind::out, ""}};
  for (const std::string& role : schema_.input_roles()) homes.emplace_back(SegmentKind::in, role);
  home_.assign(schema_.regions.size(), 0);
  for (std::size_t r = 0; r < schema_.regions.size(); ++r) {
    const RegionSchema& region = schema_.regions[r];
    if (region.channels.empty() || region.channels.size() > kMaxRegionValues) {
      throw std::invalid_argument(
          "bus region \"" + region.name + "\" has " + std::to_string(region.channels.size()) +
          " channels; a region holds 1 to " + std::to_string(kMaxRegionValues));
    }
    if (region.direction == RegionDirection::input) {
      for (std::size_t h = 1; h < homes.size(); ++h) {
        if (homes[h].second == region.writer) home_[r] = h;
      }
    }
  }
  views_.resize(schema_.regions.size());
  for (std::size_t h = 0; h < homes.size(); ++h) {
    std::vector<std::uint32_t> ids;
    std::size_t channels = 0;
    for (std::size_t r = 0; r < schema_.regions.size(); ++r) {
      if (home_[r] == h) {
        ids.push_back(static_cast<std::uint32_t>(r));
        channels += schema_.regions[r].channels.size();
      }
    }
    const std::size_t directory_bytes =
        ids.size() * sizeof(RegionDescriptor) + channels * sizeof(ChannelEntry);
    const std::size_t control_offset = round_up(kHeaderBytes + directory_bytes, kCacheLine);
    std::size_t slot_offset = control_offset + ids.size() * sizeof(RegionControl);
    std::size_t total = slot_offset;
    for (const std::uint32_t id : ids)
      total += 2 * slot_stride(schema_.regions[id].channels.size());
    const std::string name =
        "hilsim-bus:" + schema_.name + (h == 0 ? ":out" : ":in." + homes[h].second);
    Segment memory = Segment::create(name, total);
    std::byte* base = memory.data();

    auto* header = reinterpret_cast<SegmentHeader*>(base);
    std::memcpy(header->magic, kMagic, sizeof kMagic);
    header->layout_major = kLayoutMajor;
    header->layout_minor = kLayoutMinor;
    header->header_bytes = kHeaderBytes;
    header->segment_bytes = memory.size();
    header->bus_schema_hash = bus_hash;
    header->generation = generation_;
    header->created_unix_ns = created;
    header->owner_pid = static_cast<std::uint32_t>(getpid());
    header->region_count = static_cast<std::uint32_t>(ids.size());
    header->directory_offset = kHeaderBytes;
    header->directory_bytes = static_cast<std::uint32_t>(directory_bytes);
    header->channel_count = static_cast<std::uint32_t>(channels);
    header->kind = homes[h].first;
    copy_text(header->role, kRoleBytes, homes[h].second, "bus writer role");
    copy_text(header->bus_name, kRegionNameBytes, schema_.name, "bus name");

    auto* descriptors = reinterpret_cast<RegionDescriptor*>(base + kHeaderBytes);
    auto* entries = reinterpret_cast<ChannelEntry*>(base + kHeaderBytes +
                                                    ids.size() * sizeof(RegionDescriptor));
    std::uint32_t first_channel = 0;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const RegionSchema& region = schema_.regions[ids[k]];
      RegionDescriptor& d = descriptors[k];
      copy_text(d.name, kRegionNameBytes, region.name, "bus region name");
      copy_text(d.writer, kRoleBytes, region.writer, "bus writer role");
      d.id = ids[k];
      d.value_count = static_cast<std::uint32_t>(region.channels.size());
      d.direction = region.direction;
      d.value_type = 1;
      d.slot_count = 2;
      d.region_schema_hash = schema_.region_hash(ids[k]);
      d.control_offset = control_offset + k * sizeof(RegionControl);
      d.slot_offset = slot_offset;
      d.slot_stride = slot_stride(region.channels.size());
      d.expected_period_ns = region.expected_period_ns;
      d.timeout_ticks = region.timeout_ticks;
      d.first_channel = first_channel;
      slot_offset += 2 * d.slot_stride;
      for (std::size_t c = 0; c < region.channels.size(); ++c) {
        ChannelEntry& e = entries[first_channel + c];
        copy_text(e.name, kChannelNameBytes, region.channels[c].name, "bus channel name");
        copy_text(e.unit, kUnitBytes, region.channels[c].unit, "bus channel unit");
        e.region = ids[k];
        e.index = static_cast<std::uint32_t>(c);
      }
      first_channel += d.value_count;
      views_[ids[k]] = RegionView(base, d);
      // Both slots say "nothing published yet" until the writer's first publish
      for (int slot = 0; slot < 2; ++slot) {
        auto* head = reinterpret_cast<SlotHeader*>(base + d.slot_offset + slot * d.slot_stride);
        head->status = static_cast<std::uint64_t>(SlotStatus::not_initialized);
        head->value_count = d.value_count;
      }
    }
    std::atomic_ref<std::uint64_t>(header->state)
        .store(static_cast<std::uint64_t>(SegmentState::ready), std::memory_order_release);
    segments_.push_back({std::move(memory), homes[h].first, homes[h].second});
  }
}

int BusImage::segment_of_role(std::string_view role) const noexcept {
  for (std::size_t i = 1; i < segments_.size(); ++i) {
    if (segments_[i].role == role) return static_cast<int>(i);
  }
  return -1;
}

void BusImage::heartbeat(std::int64_t tick, std::uint64_t mono_ns) noexcept {
  for (Home& h : segments_) {
    auto* header = reinterpret_cast<SegmentHeader*>(h.memory.data());
    std::atomic_ref<std::uint64_t>(header->owner_tick)
        .store(static_cast<std::uint64_t>(tick), std::memory_order_relaxed);
    std::atomic_ref<std::uint64_t>(header->owner_heartbeat_mono_ns)
        .store(mono_ns, std::memory_order_release);
  }
}

void BusImage::close() noexcept {
  for (Home& h : segments_) {
    auto* header = reinterpret_cast<SegmentHeader*>(h.memory.data());
    std::atomic_ref<std::uint64_t>(header->state)
        .store(static_cast<std::uint64_t>(SegmentState::closed), std::memory_order_release);
  }
}

std::optional<SegmentDirectory> parse_segment(const std::byte* data, std::size_t size,
                                              std::string& why) {
  if (size < kHeaderBytes) {
    why = "segment smaller than its header";
    return std::nullopt;
  }
  const auto* h = reinterpret_cast<const SegmentHeader*>(data);
  if (std::memcmp(h->magic, kMagic, sizeof kMagic) != 0) {
    why = "not a hilsim bus segment (bad magic)";
    return std::nullopt;
  }
  if (h->layout_major != kLayoutMajor) {
    why = "bus layout " + std::to_string(h->layout_major) + "." + std::to_string(h->layout_minor) +
          ", this library reads " + std::to_string(kLayoutMajor) + ".x";
    return std::nullopt;
  }
  const std::uint64_t dir_end = std::uint64_t{h->directory_offset} + h->directory_bytes;
  const std::uint64_t need = std::uint64_t{h->region_count} * sizeof(RegionDescriptor) +
                             std::uint64_t{h->channel_count} * sizeof(ChannelEntry);
  if (h->header_bytes != kHeaderBytes || h->segment_bytes != size ||
      h->directory_offset < kHeaderBytes || dir_end > size || need > h->directory_bytes) {
    why = "segment directory out of bounds";
    return std::nullopt;
  }
  SegmentDirectory d;
  d.header = h;
  d.regions = {reinterpret_cast<const RegionDescriptor*>(data + h->directory_offset),
               h->region_count};
  d.channels = {reinterpret_cast<const ChannelEntry*>(data + h->directory_offset +
                                                      h->region_count * sizeof(RegionDescriptor)),
                h->channel_count};
  for (const RegionDescriptor& r : d.regions) {
    // Every sum below is of terms already bounded by `size`: nothing can wrap around
    const bool fits = r.value_count >= 1 && r.value_count <= kMaxRegionValues &&
                      r.slot_count == 2 && r.slot_stride >= slot_stride(r.value_count) &&
                      r.slot_stride <= size && r.control_offset % kCacheLine == 0 &&
                      r.control_offset <= size - sizeof(RegionControl) && r.slot_offset % 8 == 0 &&
                      r.slot_offset <= size && 2 * r.slot_stride <= size - r.slot_offset &&
                      std::uint64_t{r.first_channel} + r.value_count <= h->channel_count;
    if (!fits) {
      why = "region \"" + std::string(field_text(r.name, kRegionNameBytes)) + "\" out of bounds";
      return std::nullopt;
    }
  }
  return d;
}

}  // namespace hil::io::bus
