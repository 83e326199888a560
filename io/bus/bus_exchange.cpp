#include "io/bus/bus_exchange.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace hil::io::bus {

ImageInput::ImageInput(const BusImage& image)
    : image_(image),
      seen_(image.schema().regions.size(), ~std::uint64_t{0}),
      contention_(std::make_unique<std::atomic<std::uint64_t>[]>(seen_.size())) {}

BusInput::Read ImageInput::read(std::uint32_t region, std::int64_t /*tick*/,
                                RegionSnapshot& out) noexcept {
  const RegionView& view = image_.region(region);
  const std::uint64_t now = view.sequence();
  if (now == seen_[region]) return Read::unchanged;
  const rt::LatchRead r = view.read(out, 3);
  if (!r.ok) {
    contention_[region].fetch_add(1, std::memory_order_relaxed);
    return Read::contention;
  }
  seen_[region] = r.seq;
  return Read::snapshot;
}

namespace {

std::string channel_problem(const rt::ChannelTable& table, const std::string& name) {
  try {
    (void)table.resolve(name);
  } catch (const std::out_of_range& e) {
    return e.what();
  }
  return {};
}

}  // namespace

std::unique_ptr<BusExchange> BusExchange::create(const BusSpec& spec, rt::ChannelTable& table,
                                                 std::vector<BusProblem>& problems) {
  std::unique_ptr<BusExchange> task(new BusExchange());
  task->table_ = &table;
  task->schema_.name = spec.name;
  std::map<std::string, std::string> fed_by;  // input channel → "regions[i]"
  const std::size_t problems_before = problems.size();
  for (std::size_t i = 0; i < spec.regions.size(); ++i) {
    const RegionSpec& rs = spec.regions[i];
    const std::string at = fmt::format("regions[{}]", i);
    const bool input = rs.direction == RegionDirection::input;
    RegionSchema schema{.name = rs.name,
                        .direction = rs.direction,
                        .writer = input ? rs.writer : std::string(kHilsimRole),
                        .timeout_ticks = input ? rs.timeout_ticks : 0};
    Region region;
    region.id = static_cast<std::uint32_t>(i);
    region.input = input;
    region.timeout_ticks = rs.timeout_ticks;
    region.hold_ticks = rs.hold_ticks;
    region.every_ticks = std::max<std::uint32_t>(1, rs.every_ticks);
    if (rs.channels.empty() || rs.channels.size() > kMaxRegionValues) {
      problems.push_back({at + ".channels", fmt::format("{} channels; a region holds 1 to {}",
                                                        rs.channels.size(), kMaxRegionValues)});
    }
    for (std::size_t c = 0; c < rs.channels.size(); ++c) {
      const std::string field = fmt::format("{}.channels[{}]", at, c);
      const std::optional<rt::ChannelId> id = table.find(rs.channels[c]);
      if (!id) {
        problems.push_back({field, channel_problem(table, rs.channels[c])});
        continue;
      }
      if (input && table.spec(*id).direction != rt::Direction::input) {
        problems.push_back(
            {field, fmt::format("{} is an output of the rig; an input region writes input "
                                "channels (hilsim check --print lists them)",
                                rs.channels[c])});
      }
      if (input) {
        const auto [it, fresh] = fed_by.emplace(rs.channels[c], at);
        if (!fresh) {
          problems.push_back(
              {field, fmt::format("{} is already fed by {}: a channel has one source",
                                  rs.channels[c], it->second)});
        }
      }
      region.channels.push_back(*id);
      schema.channels.push_back({rs.channels[c], table.spec(*id).unit});
    }
    for (std::size_t k = 0; k < rs.ranges.size(); ++k) {
      const RangeSpec& range = rs.ranges[k];
      const auto pos = std::find(rs.channels.begin(), rs.channels.end(), range.channel);
      if (pos == rs.channels.end()) {
        problems.push_back(
            {fmt::format("{}.ranges[{}].channel", at, k),
             fmt::format("{} is not a channel of region {}", range.channel, rs.name)});
        continue;
      }
      if (!(range.min <= range.max)) {
        problems.push_back({fmt::format("{}.ranges[{}]", at, k),
                            fmt::format("min {} is above max {}", range.min, range.max)});
      }
      region.ranges.push_back({.index = static_cast<std::uint32_t>(pos - rs.channels.begin()),
                               .min = range.min,
                               .max = range.max,
                               .clamp = range.clamp});
    }
    for (std::size_t k = 0; k < rs.safe.size(); ++k) {
      const std::optional<rt::ChannelId> id = table.find(rs.safe[k].first);
      if (!id || table.spec(*id).direction != rt::Direction::input) {
        problems.push_back({fmt::format("{}.on_timeout.set[{}].channel", at, k),
                            id ? fmt::format("{} is not an input channel", rs.safe[k].first)
                               : channel_problem(table, rs.safe[k].first)});
        continue;
      }
      region.safe.emplace_back(*id, rs.safe[k].second);
    }
    const std::string prefix = "bus." + rs.name + ".";
    auto status = [&](const char* what, const char* description) {
      return table.add({.name = prefix + what,
                        .unit = "-",
                        .direction = rt::Direction::output,
                        .description = description});
    };
    if (problems.size() == problems_before) {
      region.seq_ch =
          status("seq", input ? "region_seq of the last applied snapshot" : "snapshots published");
      if (input) {
        region.timeout_ch = status("timeout", "1 while the region is missing");
        region.lost_ch = status("lost", "snapshots skipped by the writer's sequence");
        region.rejected_ch = status("rejected", "snapshots refused (non-finite, range, tick)");
        region.restarts_ch = status("writer_restarts", "new writer sessions after the first");
      }
    }
    task->regions_.push_back(std::move(region));
    task->schema_.regions.push_back(std::move(schema));
  }
  if (problems.size() != problems_before) return nullptr;
  return task;
}

void BusExchange::connect(BusImage* image, BusInput* input) noexcept {
  image_ = image;
  input_ = input;
  for (Region& r : regions_) {
    if (!r.input && image_ != nullptr) r.writer = RegionWriter(image_->region(r.id), random_u64());
  }
}

void BusExchange::read(std::int64_t tick) noexcept {
  rt::ChannelTable& table = *table_;
  for (Region& r : regions_) {
    if (!r.input) continue;
    if (input_ != nullptr && input_->read(r.id, tick, scratch_) == BusInput::Read::snapshot) {
      consume(r, tick, table);
    }
    watch_timeout(r, tick, table);
  }
}

void BusExchange::consume(Region& r, std::int64_t tick, rt::ChannelTable& table) noexcept {
  const SlotHeader& head = scratch_.head;
  if (head.region_seq == 0) return;  // nothing published yet
  const bool same_session = head.session_id == r.session;
  if (same_session && head.region_seq <= r.seq) return;  // already consumed
  if (tap_ != nullptr) {
    record_.tick = tick;
    record_.region = r.id;
    record_.snapshot = scratch_;
    (void)tap_->try_push(record_);
  }
  RegionCounters& counters = *r.counters;
  if (!same_session) {
    if (r.session != 0) {
      ++r.restarts_total;
      counters.writer_restarts.fetch_add(1, std::memory_order_relaxed);
    }
  } else if (head.region_seq > r.seq + 1) {
    r.lost_total += head.region_seq - r.seq - 1;
    counters.lost.store(r.lost_total, std::memory_order_relaxed);
  }
  const bool tick_back = same_session && head.tick < r.writer_tick;
  r.session = head.session_id;
  r.seq = head.region_seq;
  r.writer_tick = head.tick;
  table.set(r.seq_ch, static_cast<double>(r.seq));
  table.set(r.lost_ch, static_cast<double>(r.lost_total));
  table.set(r.restarts_ch, static_cast<double>(r.restarts_total));

  const std::size_t n = r.channels.size();
  bool ok = !tick_back && head.value_count == n &&
            head.status != static_cast<std::uint64_t>(SlotStatus::not_initialized);
  for (std::size_t i = 0; ok && i < n; ++i) ok = std::isfinite(scratch_.values[i]);
  for (const Range& range : r.ranges) {
    double& v = scratch_.values[range.index];
    if (!ok || (v >= range.min && v <= range.max)) continue;
    if (!range.clamp) {
      ok = false;
      break;
    }
    v = std::clamp(v, range.min, range.max);
    counters.clamped.fetch_add(1, std::memory_order_relaxed);
  }
  if (!ok) {
    ++r.rejected_total;
    counters.rejected.store(r.rejected_total, std::memory_order_relaxed);
    table.set(r.rejected_ch, static_cast<double>(r.rejected_total));
    return;
  }
  if (head.status == static_cast<std::uint64_t>(SlotStatus::safe_state)) {
    // The writer asks for the safe values (its model failed, or it is shutting down)
    counters.safe_requests.fetch_add(1, std::memory_order_relaxed);
    apply_safe(r, table);
  } else {
    for (std::size_t i = 0; i < n; ++i) table.set(r.channels[i], scratch_.values[i]);
  }
  r.last_valid_tick = tick;
  counters.applied.fetch_add(1, std::memory_order_relaxed);
  counters.last_tick.store(tick, std::memory_order_relaxed);
}

void BusExchange::watch_timeout(Region& r, std::int64_t tick, rt::ChannelTable& table) noexcept {
  if (r.timeout_ticks == 0) return;
  const std::int64_t silent = tick - r.last_valid_tick;
  const bool missing = silent >= r.timeout_ticks;
  if (missing && !r.timed_out) {
    ++r.timeouts_total;
    r.counters->timeouts.store(r.timeouts_total, std::memory_order_relaxed);
  }
  r.timed_out = missing;
  r.counters->timed_out.store(missing, std::memory_order_relaxed);
  table.set(r.timeout_ch, missing ? 1.0 : 0.0);
  if (missing && silent >= std::int64_t{r.timeout_ticks} + r.hold_ticks) apply_safe(r, table);
}

void BusExchange::apply_safe(const Region& r, rt::ChannelTable& table) const noexcept {
  for (const auto& [id, value] : r.safe) table.set(id, value);
}

void BusExchange::write(std::int64_t tick) noexcept {
  rt::ChannelTable& table = *table_;
  std::uint64_t now = 0;
  for (Region& r : regions_) {
    if (r.input || tick % r.every_ticks != 0) continue;
    const std::size_t n = r.channels.size();
    for (std::size_t i = 0; i < n; ++i) out_[i] = table.get(r.channels[i]);
    ++r.seq;
    table.set(r.seq_ch, static_cast<double>(r.seq));
    r.counters->applied.fetch_add(1, std::memory_order_relaxed);
    r.counters->last_tick.store(tick, std::memory_order_relaxed);
    if (image_ == nullptr) continue;
    if (now == 0) now = monotonic_ns();
    r.writer.publish(out_, tick, now);
  }
  if (image_ != nullptr) image_->heartbeat(tick, now != 0 ? now : monotonic_ns());
}

}  // namespace hil::io::bus
