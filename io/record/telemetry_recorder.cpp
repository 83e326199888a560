#include "io/record/telemetry_recorder.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace hil::io::record {

namespace {

constexpr std::size_t kMinRingSamples = 16;
constexpr auto kPollInterval = std::chrono::milliseconds(5);

std::uint32_t checked_decimation(const TelemetryRecorderConfig& c) {
  if (c.tick_period_ns <= 0) throw std::invalid_argument("telemetry: tick period must be > 0");
  if (!(c.max_rate_hz > 0.0)) throw std::invalid_argument("telemetry: max rate must be > 0 Hz");
  if (c.flush_interval.count() <= 0) {
    throw std::invalid_argument("telemetry: flush interval must be > 0");
  }
  return TelemetryRecorder::decimation_for(c.tick_period_ns, c.max_rate_hz);
}

std::size_t ring_samples(const TelemetryRecorderConfig& c, std::uint32_t decimation) {
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

TelemetryRecorder::TelemetryRecorder(const rt::ChannelTable& table,
                                     const std::filesystem::path& path,
                                     TelemetryRecorderConfig config)
    : TelemetryRecorder(table, std::make_unique<FileSink>(path), std::move(config)) {}

TelemetryRecorder::TelemetryRecorder(const rt::ChannelTable& table, std::unique_ptr<ByteSink> sink,
                                     TelemetryRecorderConfig config)
    : config_(std::move(config)),
      schema_(table),
      decimation_(checked_decimation(config_)),
      words_per_sample_(table.size() + 1),
      samples_(ring_samples(config_, decimation_) * words_per_sample_),
      events_(std::max<std::size_t>(config_.event_ring, 1)),
      writer_(std::make_unique<McapWriter>(std::move(sink),
                                           McapWriterOptions{.chunk_bytes = config_.chunk_bytes})),
      scratch_(words_per_sample_) {
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
                         {"channels", std::to_string(table.size())}});
  if (!config_.run_metadata.empty()) writer_->add_metadata("hilsim.run", config_.run_metadata);
  writer_->flush();  // the schemas are on disk before the first sample
  bytes_written_.store(writer_->bytes_written(), std::memory_order_relaxed);
  thread_ = std::jthread([this](const std::stop_token& stop) { run(stop); });
}

TelemetryRecorder::~TelemetryRecorder() { stop(); }

PushResult TelemetryRecorder::push(std::int64_t tick, std::span<const double> values) noexcept {
  if (tick % decimation_ != 0) return PushResult::decimated;
  if (values.size() + 1 != words_per_sample_ || samples_.write_available() < words_per_sample_) {
    samples_dropped_.fetch_add(1, std::memory_order_relaxed);  // a statistic
    return PushResult::dropped;
  }
  // One producer: the room checked above cannot shrink before these two pushes. The consumer
  // pops only whole samples, so it never sees the tick without its values.
  (void)samples_.push(std::bit_cast<double>(tick));
  (void)samples_.push(values.data(), values.size());
  return PushResult::queued;
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
  c.samples_dropped = samples_dropped_.load(std::memory_order_relaxed);
  c.events_recorded = events_recorded_.load(std::memory_order_relaxed);
  c.events_dropped = events_.dropped() + events_lost_.load(std::memory_order_relaxed);
  c.bytes_written = bytes_written_.load(std::memory_order_relaxed);
  return c;
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
    writer_->close();
    samples_durable_.store(samples_recorded_.load(std::memory_order_relaxed),
                           std::memory_order_relaxed);
    bytes_written_.store(writer_->bytes_written(), std::memory_order_relaxed);
    flushes_.fetch_add(1, std::memory_order_release);
  } catch (const std::exception& e) {
    fail(e);
  }
}

void TelemetryRecorder::drain() {
  // Only what is queued now: a producer that outpaces the writer must not keep it from its
  // next flush (the flush interval bounds what a crash can lose).
  for (std::size_t n = samples_.read_available() / words_per_sample_; n > 0; --n) {
    (void)samples_.pop(scratch_.data(), words_per_sample_);
    write_sample();
  }
  EventSlot e{};
  while (events_.try_pop(e)) write_event(e);
  bytes_written_.store(writer_->bytes_written(), std::memory_order_relaxed);
}

void TelemetryRecorder::write_sample() {
  if (failed_) {
    samples_dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const auto tick = std::bit_cast<std::int64_t>(scratch_[0]);
  const std::span<const double> values = std::span(scratch_).subspan(1);
  const double sim_time_s = static_cast<double>(tick * config_.tick_period_ns) * 1e-9;
  try {
    const auto groups = schema_.groups();
    for (std::size_t g = 0; g < groups.size(); ++g) {
      schema_.encode(groups[g], tick, sim_time_s, values, message_);
      writer_->write_message(group_channels_[g], sequence_, log_time(tick), log_time(tick),
                             message_);
    }
    ++sequence_;
    samples_recorded_.fetch_add(1, std::memory_order_relaxed);
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

void TelemetryRecorder::flush() {
  if (failed_) return;
  try {
    const std::uint64_t recorded = samples_recorded_.load(std::memory_order_relaxed);
    writer_->flush();
    samples_durable_.store(recorded, std::memory_order_relaxed);
    bytes_written_.store(writer_->bytes_written(), std::memory_order_relaxed);
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
