#include "tools/session/replay/telemetry_prefetch.hpp"

#include <utility>

namespace hil::session {

/// Fills batches from the reader's callbacks and hands each full one over.
class TelemetryPrefetch::Visitor final : public io::record::TelemetryVisitor {
 public:
  explicit Visitor(TelemetryPrefetch& owner) : owner_(owner) {}
  void on_topic(std::size_t topic, const io::record::TelemetryLayout& layout) override {
    TelemetryItem* item = slot();
    if (item == nullptr) return;
    item->topic = topic;
    item->is_topic = true;
    item->answered = false;
    item->channels.clear();
    for (const io::record::TelemetryColumn& c : layout.columns())
      item->channels.push_back(c.channel);
    filled();
  }
  void on_sample(std::size_t topic, std::uint64_t /*log_time*/,
                 const io::record::TelemetrySample& s) override {
    TelemetryItem* item = slot();
    if (item == nullptr) return;
    item->topic = topic;
    item->is_topic = false;
    item->answered = false;
    item->sample.tick = s.tick;
    item->sample.sim_time_s = s.sim_time_s;
    item->sample.values.assign(s.values.begin(), s.values.end());  // reuses the capacity
    // Room for the answer, allocated and touched here rather than on the loop's thread
    item->replayed.resize(s.values.size());
    filled();
  }
  /// Hands over the last, partly filled batch.
  void flush() {
    if (batch_ != nullptr && batch_->size > 0) owner_.hand_over(std::exchange(batch_, nullptr));
  }

 private:
  /// The next free item, or nullptr once the consumer stopped.
  TelemetryItem* slot() {
    if (batch_ == nullptr) {
      batch_ = owner_.take_empty();
      if (batch_ == nullptr) return nullptr;
      batch_->size = 0;
      if (batch_->items.size() < kBatch) batch_->items.resize(kBatch);
    }
    return &batch_->items[batch_->size];
  }
  void filled() {
    if (++batch_->size == kBatch) owner_.hand_over(std::exchange(batch_, nullptr));
  }
  TelemetryPrefetch& owner_;
  Batch* batch_ = nullptr;
};

TelemetryPrefetch::TelemetryPrefetch(std::vector<std::filesystem::path> files,
                                     HandedBack handed_back)
    : handed_back_(std::move(handed_back)) {
  for (Batch& b : pool_) empty_.push_back(&b);
  reader_ = std::thread([this, files = std::move(files)] {
    io::record::TelemetryReadReport report;
    std::exception_ptr error;
    try {
      Visitor visitor(*this);
      report = io::record::read_telemetry_files(files, visitor);
      visitor.flush();
    } catch (...) {
      error = std::current_exception();
    }
    const std::scoped_lock lock(mutex_);
    report_ = std::move(report);
    error_ = error;
    done_ = true;
    changed_.notify_all();
  });
}

TelemetryPrefetch::~TelemetryPrefetch() { stop_reading(); }

void TelemetryPrefetch::stop_reading() {
  {
    const std::scoped_lock lock(mutex_);
    stop_ = true;  // whatever is still unread is not wanted
    changed_.notify_all();
  }
  if (reader_.joinable()) reader_.join();
}

TelemetryPrefetch::Batch* TelemetryPrefetch::take_empty() {
  Batch* b = nullptr;
  {
    std::unique_lock lock(mutex_);
    if (!stop_ && empty_.empty()) {
      // Read ahead to the full pool, then wait until half of it is back: a wake-up per
      // kBatches/2 batches, not per batch
      reader_waiting_ = true;
      changed_.wait(lock, [&] { return stop_ || empty_.size() >= kBatches / 2; });
      reader_waiting_ = false;
    }
    if (stop_) return nullptr;  // finish() passes back what is left
    b = empty_.front();
    empty_.pop_front();
  }
  pass_back(*b);  // the reader owns it now
  return b;
}

void TelemetryPrefetch::pass_back(Batch& b) {
  if (!b.handed_back) return;
  b.handed_back = false;
  if (handed_back_) {
    for (std::size_t i = 0; i < b.size; ++i) handed_back_(b.items[i]);
  }
}

void TelemetryPrefetch::hand_over(Batch* filled) {
  const std::scoped_lock lock(mutex_);
  filled_.push_back(filled);
  if (consumer_waiting_) changed_.notify_all();
}

TelemetryItem* TelemetryPrefetch::next() {
  if (current_ == nullptr || next_in_current_ == current_->size) {
    std::unique_lock lock(mutex_);
    if (current_ != nullptr) {  // handed out entirely: back to the reader
      current_->handed_back = true;
      empty_.push_back(current_);
      current_ = nullptr;
      if (reader_waiting_ && empty_.size() >= kBatches / 2) changed_.notify_all();
    }
    consumer_waiting_ = true;
    changed_.wait(lock, [&] { return !filled_.empty() || done_; });
    consumer_waiting_ = false;
    if (filled_.empty()) return nullptr;
    current_ = filled_.front();
    filled_.pop_front();
    next_in_current_ = 0;
  }
  return &current_->items[next_in_current_++];
}

io::record::TelemetryReadReport TelemetryPrefetch::finish() {
  stop_reading();
  // The reader has ended: the batches handed back since it last took one, in the order they
  // came back (file order), then what the consumer was handed of the one it was reading
  for (Batch* b : empty_) pass_back(*b);
  if (current_ != nullptr && handed_back_) {
    for (std::size_t i = 0; i < next_in_current_; ++i) handed_back_(current_->items[i]);
    current_ = nullptr;  // once
  }
  if (error_) std::rethrow_exception(error_);
  return report_;
}

}  // namespace hil::session
