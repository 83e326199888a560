#include "io/record/telemetry_recorder.hpp"

#include <pthread.h>

#include "io/record/telemetry_reader.hpp"

#include <fnmatch.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <system_error>

namespace hil::io::record {

namespace {

constexpr std::size_t kMinRingSamples = 16;
constexpr auto kPollInterval = std::chrono::milliseconds(5);

std::uint32_t checked_decimation(const TelemetryRecorderSpec& c) {
  if (c.tick_period_ns <= 0) throw std::invalid_argument("telemetry: tick period must be > 0");
  if (!(c.max_rate_hz > 0.0)) throw std::invalid_argument("telemetry: max rate must be > 0 Hz");
  if (c.flush_interval.count() <= 0) {
    throw std::invalid_argument("telemetry: flush interval must be > 0");
  }
  return TelemetryRecorder::decimation_for(c.tick_period_ns, c.max_rate_hz);
}

/// The recording rate of each group (first matching pattern, else max_rate_hz) as a tick
/// decimation.
std::vector<std::uint32_t> group_decimations(const TelemetryRecorderSpec& c,
                                             const TelemetrySchema& schema) {
  std::vector<std::uint32_t> out;
  for (const TelemetryGroup& g : schema.groups()) {
    double rate = c.max_rate_hz;
    for (const auto& [pattern, hz] : c.group_rates_hz) {
      if (fnmatch(pattern.c_str(), g.group.c_str(), 0) == 0) {
        rate = hz;
        break;
      }
    }
    if (!(rate > 0.0)) throw std::invalid_argument("telemetry: a group rate must be > 0 Hz");
    out.push_back(TelemetryRecorder::decimation_for(c.tick_period_ns, rate));
  }
  return out;
}

/// The extra topics' rate as a tick decimation (0: no extra topics).
std::uint32_t extra_decimation(const TelemetryRecorderSpec& c) {
  if (c.extra_topics == nullptr) return 0;
  const double rate = c.extra_topics->rate_hz();
  if (!(rate > 0.0))
    throw std::invalid_argument("telemetry: the extra topics' rate must be > 0 Hz");
  return TelemetryRecorder::decimation_for(c.tick_period_ns, rate);
}

/// The ring's decimation: that of the fastest group or extra topic (every tick any records).
std::uint32_t base_decimation(const TelemetryRecorderSpec& c, const TelemetrySchema& schema) {
  std::uint32_t base = checked_decimation(c);
  for (const std::uint32_t d : group_decimations(c, schema)) base = std::min(base, d);
  if (const std::uint32_t extra = extra_decimation(c); extra > 0) base = std::min(base, extra);
  return base;
}

std::size_t ring_samples(const TelemetryRecorderSpec& c, std::uint32_t decimation) {
  const double rate = 1e9 / (static_cast<double>(c.tick_period_ns) * decimation);
  const double samples = std::ceil(std::max(c.ring_seconds, 0.0) * rate);
  return std::max(kMinRingSamples, static_cast<std::size_t>(std::min(samples, 1e9)));
}

}  // namespace

std::uint32_t TelemetryRecorder::decimation_for(std::int64_t tick_period_ns, double max_rate_hz) {
  const double tick_rate_hz = 1e9 / static_cast<double>(tick_period_ns);
  // The tolerance keeps exact ratios (4 kHz / 1 kHz = 4) from rounding up to 5.
  const double k = std::ceil(tick_rate_hz / max_rate_hz - 1e-9);
  return static_cast<std::uint32_t>(std::clamp(k, 1.0, 4e9));
}

namespace {

TelemetryRecorderSpec with_parts(TelemetryRecorderSpec c, const std::filesystem::path& path) {
  if (!c.open_part) {
    c.open_part = [path](std::size_t part) -> std::unique_ptr<ByteSink> {
      return std::make_unique<FileSink>(telemetry_part_path(path, part));
    };
  }
  return c;
}

}  // namespace

TelemetryRecorder::TelemetryRecorder(const rt::ChannelTable& table,
                                     const std::filesystem::path& path,
                                     TelemetryRecorderSpec config)
    : TelemetryRecorder(table, std::make_unique<FileSink>(path),
                        with_parts(std::move(config), path)) {}

TelemetryRecorder::TelemetryRecorder(const rt::ChannelTable& table, std::unique_ptr<ByteSink> sink,
                                     TelemetryRecorderSpec config)
    : config_(std::move(config)),
      schema_(table),
      decimation_(base_decimation(config_, schema_)),
      samples_(table.size(), ring_samples(config_, decimation_)),
      events_(std::max<std::size_t>(config_.event_ring, 1)),
      scratch_(table.size()),
      table_(table) {
  for (const std::uint32_t d : group_decimations(config_, schema_)) {
    // a whole multiple of the ring's decimation: every tick a group records is in the ring
    group_decimation_.push_back((d + decimation_ - 1) / decimation_ * decimation_);
  }
  if (config_.extra_topics != nullptr) {
    const std::uint32_t d = extra_decimation(config_);
    extra_decimation_ = (d + decimation_ - 1) / decimation_ * decimation_;
    extra_ = config_.extra_topics->topics();
    write_extra_ = [this](std::size_t topic, std::span<const std::uint8_t> message) {
      writer_->write_message(extra_channels_.at(topic), extra_sequence_++, extra_log_time_,
                             extra_log_time_, message);
    };
  }
  open_writer(std::move(sink), 0);
  thread_ = std::jthread([this](const std::stop_token& stop) {
    pthread_setname_np(pthread_self(), "hilsim-record");
    run(stop);
  });
}

void TelemetryRecorder::open_writer(std::unique_ptr<ByteSink> sink, std::int64_t first_tick) {
  const std::uint64_t before = writer_ ? bytes_written_.load(std::memory_order_relaxed) : 0;
  writer_ = std::make_unique<McapWriter>(
      std::move(sink),
      McapWriterSpec{.chunk_bytes = config_.chunk_bytes, .compression = config_.compression});
  group_channels_.clear();
  for (const TelemetryGroup& g : schema_.groups()) {
    const std::uint16_t schema =
        writer_->add_schema(g.message_name, kProtobufEncoding, g.file_descriptor_set);
    group_channels_.push_back(writer_->add_channel(schema, g.topic, kProtobufEncoding, g.metadata));
  }
  const std::uint16_t event_schema =
      writer_->add_schema(kEventMessageName, kProtobufEncoding, event_file_descriptor_set());
  event_channel_ = writer_->add_channel(event_schema, kEventTopic, kProtobufEncoding, {});
  writer_->add_metadata("hilsim.telemetry",
                        {{"tick_period_ns", std::to_string(config_.tick_period_ns)},
                         {"start_time_ns", std::to_string(config_.start_time_ns)},
                         {"decimation", std::to_string(decimation_)},
                         {"channels", std::to_string(table_.size())},
                         {"part", std::to_string(part_)},
                         {"first_tick", std::to_string(first_tick)}});
  if (!config_.run_metadata.empty()) writer_->add_metadata("hilsim.run", config_.run_metadata);
  open_extra_topics(first_tick);
  writer_->flush();  // the schemas are on disk before the first sample
  part_first_tick_ = first_tick;
  file_bytes_base_ = before;
  publish_bytes();
}

void TelemetryRecorder::open_extra_topics(std::int64_t first_tick) {
  extra_channels_.clear();
  if (config_.extra_topics == nullptr) return;
  for (const ExtraTopic& t : extra_) {
    const std::uint16_t schema = writer_->add_schema(t.schema_name, kProtobufEncoding, t.schema);
    extra_channels_.push_back(writer_->add_channel(schema, t.topic, kProtobufEncoding, {}));
  }
  extra_log_time_ = log_time(first_tick);
  config_.extra_topics->file_start(first_tick, extra_log_time_, write_extra_);
}

void TelemetryRecorder::close_file() {
  writer_->close();
  samples_durable_.store(samples_recorded_.load(std::memory_order_relaxed),
                         std::memory_order_relaxed);
  publish_bytes();
}

void TelemetryRecorder::publish_bytes() noexcept {
  bytes_written_.store(file_bytes_base_ + writer_->bytes_written(), std::memory_order_relaxed);
}

void TelemetryRecorder::next_part(std::int64_t first_tick) {
  close_file();
  ++part_;
  open_writer(config_.open_part(part_), first_tick);
  files_.fetch_add(1, std::memory_order_relaxed);
}

void TelemetryRecorder::stop_recording(std::int64_t tick, const std::string& why) {
  stopped_at_tick_.store(tick, std::memory_order_relaxed);
  try {
    close_file();                    // complete up to here: readable on its own
  } catch (const std::exception&) {  // the disk took not even the summary: the prefix stays
  }
  fail(std::runtime_error(why));
}

TelemetryRecorder::~TelemetryRecorder() { stop(); }

PushResult TelemetryRecorder::push(std::int64_t tick, std::span<const double> values) noexcept {
  if (tick % decimation_ != 0) return PushResult::decimated;
  return samples_.try_push(tick, values) ? PushResult::queued : PushResult::dropped;
}

bool TelemetryRecorder::push_event(std::int64_t tick, std::string_view kind,
                                   std::string_view text) noexcept {
  EventSlot e{};
  e.tick = tick;
  e.kind_length = static_cast<std::uint8_t>(std::min(kind.size(), e.kind.size()));
  e.text_length = static_cast<std::uint8_t>(std::min(text.size(), e.text.size()));
  std::copy_n(kind.begin(), e.kind_length, e.kind.begin());
  std::copy_n(text.begin(), e.text_length, e.text.begin());
  return events_.try_push(e);
}

RecorderCounters TelemetryRecorder::counters() const noexcept {
  RecorderCounters c;
  c.flushes = flushes_.load(std::memory_order_acquire);  // pairs with the release in flush()
  c.samples_durable = samples_durable_.load(std::memory_order_relaxed);
  c.samples_recorded = samples_recorded_.load(std::memory_order_relaxed);
  c.samples_dropped = samples_dropped_.load(std::memory_order_relaxed) + samples_.dropped();
  c.events_recorded = events_recorded_.load(std::memory_order_relaxed);
  c.events_dropped = events_.dropped() + events_lost_.load(std::memory_order_relaxed);
  c.bytes_written = bytes_written_.load(std::memory_order_relaxed);
  c.files = files_.load(std::memory_order_relaxed);
  c.stopped_at_tick = stopped_at_tick_.load(std::memory_order_relaxed);
  return c;
}

double TelemetryRecorder::estimated_bytes_per_hour() const noexcept {
  const double ratio = config_.compression == Compression::zstd  ? 5.0
                       : config_.compression == Compression::lz4 ? 3.0
                                                                 : 1.0;
  const double ticks_per_s = 1e9 / static_cast<double>(config_.tick_period_ns);
  const auto groups = schema_.groups();
  double per_s = 0.0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const double message = 31.0 + 13.0 + 9.0 * static_cast<double>(groups[g].fields.size());
    per_s += ticks_per_s / group_decimation_[g] * (message / ratio + 16.0);
  }
  return per_s * 3600.0;
}

std::string TelemetryRecorder::error() const {
  const std::scoped_lock lock(error_mutex_);
  return error_;
}

void TelemetryRecorder::stop() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
}

std::uint64_t TelemetryRecorder::log_time(std::int64_t tick) const noexcept {
  return config_.start_time_ns + static_cast<std::uint64_t>(tick * config_.tick_period_ns);
}

void TelemetryRecorder::run(const std::stop_token& stop) {
  auto last_flush = std::chrono::steady_clock::now();
  while (!stop.stop_requested()) {
    drain();
    if (std::chrono::steady_clock::now() - last_flush >= config_.flush_interval) {
      flush();
      last_flush = std::chrono::steady_clock::now();
    }
    std::unique_lock lock(wake_mutex_);
    wake_.wait_for(lock, stop, kPollInterval, [] { return false; });
  }
  drain();
  if (failed_) return;
  try {
    close_file();
    flushes_.fetch_add(1, std::memory_order_release);
  } catch (const std::exception& e) {
    fail(e);
  }
}

void TelemetryRecorder::drain() {
  // Only what is queued now: a producer that outpaces the writer must not keep it from its
  // next flush (the flush interval bounds what a crash can lose).
  for (std::size_t n = samples_.rows_available(); n > 0; --n) {
    (void)samples_.try_pop(scratch_tick_, scratch_);
    write_sample();
  }
  EventSlot e{};
  while (events_.try_pop(e)) write_event(e);
  if (!failed_) publish_bytes();
}

void TelemetryRecorder::write_sample() {
  if (failed_) {
    samples_dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const std::int64_t tick = scratch_tick_;
  const std::span<const double> values = scratch_;
  const double sim_time_s = static_cast<double>(tick * config_.tick_period_ns) * 1e-9;
  try {
    // the disk's free space, also between flushes: a loop faster than real time fills it fast
    if (config_.min_free_bytes > 0 &&
        file_bytes_base_ + writer_->bytes_written() + writer_->pending_bytes() -
                checked_at_bytes_ >=
            std::max<std::uint64_t>(config_.min_free_bytes / 8, std::uint64_t{64} * 1024) &&
        below_watermark()) {
      samples_dropped_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    if ((config_.split_bytes > 0 && writer_->bytes_written() >= config_.split_bytes) ||
        (config_.split_ticks > 0 && tick - part_first_tick_ >= config_.split_ticks)) {
      if (config_.open_part) next_part(tick);
    }
    last_tick_ = tick;
    const auto groups = schema_.groups();
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (tick % group_decimation_[g] != 0) continue;
      TelemetrySchema::encode(groups[g], tick, sim_time_s, values, message_);
      writer_->write_message(group_channels_[g], sequence_, log_time(tick), log_time(tick),
                             message_);
    }
    if (extra_decimation_ > 0 && tick % extra_decimation_ == 0) {
      extra_log_time_ = log_time(tick);
      config_.extra_topics->sample(tick, extra_log_time_, values, write_extra_);
    }
    ++sequence_;
    samples_recorded_.fetch_add(1, std::memory_order_relaxed);
  } catch (const std::system_error& ex) {
    if (ex.code() == std::errc::no_space_on_device) {  // past the watermark: the disk is full
      stop_recording(tick, "recording stopped: disk full at tick " + std::to_string(tick) + " (" +
                               ex.what() + ")");
    } else {
      fail(ex);
    }
    samples_dropped_.fetch_add(1, std::memory_order_relaxed);
  } catch (const std::exception& ex) {
    fail(ex);
    samples_dropped_.fetch_add(1, std::memory_order_relaxed);
  }
}

void TelemetryRecorder::write_event(const EventSlot& e) {
  if (failed_) {
    events_lost_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const double sim_time_s = static_cast<double>(e.tick * config_.tick_period_ns) * 1e-9;
  try {
    encode_event(e.tick, sim_time_s, {e.kind.data(), e.kind_length}, {e.text.data(), e.text_length},
                 message_);
    writer_->write_message(event_channel_, event_sequence_++, log_time(e.tick), log_time(e.tick),
                           message_);
    events_recorded_.fetch_add(1, std::memory_order_relaxed);
  } catch (const std::exception& ex) {
    fail(ex);
    events_lost_.fetch_add(1, std::memory_order_relaxed);
  }
}

bool TelemetryRecorder::below_watermark() {
  if (failed_ || config_.min_free_bytes == 0 || !config_.free_bytes) return false;
  checked_at_bytes_ = file_bytes_base_ + writer_->bytes_written() + writer_->pending_bytes();
  const std::optional<std::uint64_t> free = config_.free_bytes();
  const std::string tick = std::to_string(last_tick_ + 1);
  if (!free) {
    stop_recording(last_tick_ + 1, "recording stopped at tick " + tick +
                                       ": the run directory is gone (removed while recording)");
    return true;
  }
  // the open chunk goes to the disk at once when it closes: room for it too
  if (*free >= config_.min_free_bytes + writer_->pending_bytes()) return false;
  stop_recording(last_tick_ + 1,
                 "recording stopped: disk full at tick " + tick + " (" +
                     std::to_string(*free / 1024) + " KiB free: less than the open chunk, " +
                     std::to_string(writer_->pending_bytes() / 1024) + " KiB, and the " +
                     std::to_string(config_.min_free_bytes / 1024) + " KiB watermark)");
  return true;
}

void TelemetryRecorder::flush() {
  if (failed_ || below_watermark()) return;
  try {
    const std::uint64_t recorded = samples_recorded_.load(std::memory_order_relaxed);
    writer_->flush();
    samples_durable_.store(recorded, std::memory_order_relaxed);
    publish_bytes();
    flushes_.fetch_add(1, std::memory_order_release);
  } catch (const std::exception& e) {
    fail(e);
  }
}

void TelemetryRecorder::fail(const std::exception& e) {
  failed_ = true;
  const std::scoped_lock lock(error_mutex_);
  if (error_.empty()) error_ = e.what();
}

}  // namespace hil::io::record
