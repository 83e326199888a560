#pragma once
// Reads a run's telemetry on a thread of its own and hands the decoded samples over in file
// order, so that `hilsim replay` decompresses and decodes on one core while its loop runs on
// the other (docs/performance.md). Batches of items circulate between the two threads and are
// reused, so that after the first few nothing is allocated or freed per sample. The consumer
// may write its answer into an item (the replayed values); each item it handed back goes, in
// file order, to a hook on the reading thread (the comparison), so that the loop's core never
// reads the recorded values.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/record/telemetry_reader.hpp"

namespace hil::session {

/// What the reading thread hands over: a topic's columns (before its samples) or a sample.
struct TelemetryItem {
  std::size_t topic = 0;
  bool is_topic = false;
  std::vector<std::string> channels;   ///< a topic: its columns' channels
  io::record::TelemetrySample sample;  ///< a sample
  /// The consumer's answer to a sample (false when the reader fills the item): its values
  /// in `replayed`, column by column (capacity reused).
  bool answered = false;
  std::vector<double> replayed;
};

/// Thread-safety: construct, next() and finish() from one thread; the reading thread is
/// internal. `handed_back` runs on the reading thread, then (for the items handed back after
/// it ended) in finish(): never on two threads at once.
class TelemetryPrefetch {
 public:
  /// Called once per item the consumer was handed, in file order, some time after the
  /// consumer moved past it: when the reader reuses its batch, or in finish().
  using HandedBack = std::function<void(const TelemetryItem&)>;
  /// Starts reading `files` (io::record::telemetry_parts()) at once.
  explicit TelemetryPrefetch(std::vector<std::filesystem::path> files, HandedBack handed_back = {});
  ~TelemetryPrefetch();
  TelemetryPrefetch(const TelemetryPrefetch&) = delete;
  TelemetryPrefetch& operator=(const TelemetryPrefetch&) = delete;

  /// The next item in file order, waiting for the reader; nullptr once everything was handed.
  /// Valid until the next call; the consumer may set its answer.
  TelemetryItem* next();
  /// Waits for the reader, passes the items handed back since to `handed_back`; the reader's
  /// report. Rethrows what reading threw (a file not readable).
  io::record::TelemetryReadReport finish();

 private:
  class Visitor;
  struct Batch {
    std::vector<TelemetryItem> items;  ///< capacity kBatch, reused
    std::size_t size = 0;              ///< items filled
    bool handed_back = false;          ///< the consumer is done with it: for handed_back_
  };
  static constexpr std::size_t kBatch = 256;  // items per hand-over
  // Circulating: how far the reader reads ahead. The reader decompresses a whole MCAP chunk
  // (~2 ms) before its next item; half the pool must last the loop longer than that, or the
  // loop waits at every chunk (8 batches did: 11 % of a RAVON replay; 64 ≈ 6 ms of it)
  static constexpr std::size_t kBatches = 64;

  // Reader thread: an empty batch to fill (nullptr: stop; its items first to handed_back_), a
  // filled one to hand over.
  Batch* take_empty();
  void hand_over(Batch* filled);
  // Consumer: tells the reader to stop and waits for it.
  void stop_reading();
  // The batch's items to handed_back_, once.
  void pass_back(Batch& b);

  HandedBack handed_back_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Batch> pool_{kBatches};
  std::deque<Batch*> empty_, filled_;
  bool done_ = false;
  bool reader_waiting_ = false;    // for an empty batch
  bool consumer_waiting_ = false;  // for a filled batch
  bool stop_ = false;              // the consumer is finished: the reader stops handing over
  std::exception_ptr error_;
  io::record::TelemetryReadReport report_;
  Batch* current_ = nullptr;  // consumer side: the batch being handed out
  std::size_t next_in_current_ = 0;
  std::thread reader_;
};

}  // namespace hil::session
