#pragma once
// Topics telemetry.mcap carries beside the channel groups and /events (the 3D scene:
// io/scene/scene_recorder_topics.hpp), written by the recorder thread — never the RT thread —
// from the samples it records: their schemas and channels in every file, their static
// messages at the start of each file (split files included), and their per-sample messages
// from every recorded tick that falls on their rate.
//
// Thread-safety: the recorder calls every method from one thread at a time (its constructor's,
// then its own); an implementation needs no locks.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace hil::io::record {

struct ExtraTopic {
  std::string topic;                 ///< "/tf"
  std::string schema_name;           ///< "foxglove.FrameTransform"
  std::vector<std::uint8_t> schema;  ///< serialized FileDescriptorSet (MCAP "protobuf")
};

class ExtraTopics {
 public:
  /// Writes one protobuf message on topics()[topic] at the log time of the call.
  using Write = std::function<void(std::size_t topic, std::span<const std::uint8_t> message)>;

  ExtraTopics() = default;
  ExtraTopics(const ExtraTopics&) = delete;
  ExtraTopics& operator=(const ExtraTopics&) = delete;
  virtual ~ExtraTopics() = default;

  /// The topics, in the order `Write` numbers them.
  [[nodiscard]] virtual std::vector<ExtraTopic> topics() const = 0;
  /// The rate of sample() [Hz, > 0]: every k-th tick, k = ceil(tick rate / rate).
  [[nodiscard]] virtual double rate_hz() const noexcept = 0;
  /// At the start of each file, whose first tick is `tick` (log time `log_time_ns`).
  virtual void file_start(std::int64_t tick, std::uint64_t log_time_ns, const Write& write) = 0;
  /// One recorded tick on the rate: `values` holds the whole table, by channel index.
  virtual void sample(std::int64_t tick, std::uint64_t log_time_ns, std::span<const double> values,
                      const Write& write) = 0;
};

}  // namespace hil::io::record
