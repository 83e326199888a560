// Helper of record_kill_test: records test telemetry into argv[1] with a flush every
// argv[2] ms, writing "durable N" to stdout after each flush (N: samples on disk), until it
// is killed (or 60 s pass). Ticks are pushed as fast as the ring takes them, so that the
// kill lands while chunks are being written.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "io/record/telemetry_recorder.hpp"
#include "tests/io/record/recording_fixture.hpp"

int main(int argc, char** argv) {
  using namespace hil::io::record;
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s FILE FLUSH_MS\n", argv[0]);
    return 2;
  }
  const testing::VehicleTable table;
  TelemetryRecorder rec(table, argv[1],
                        {.tick_period_ns = 1'000'000,
                         .flush_interval = std::chrono::milliseconds(std::atoi(argv[2])),
                         .chunk_bytes = 4096});
  std::vector<double> values(table.size());
  std::uint64_t reported = 0;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (std::int64_t k = 0; std::chrono::steady_clock::now() < end;) {
    testing::fill_values(k, values);
    if (rec.push(k, values) == PushResult::queued) {
      ++k;
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    const RecorderCounters c = rec.counters();
    if (c.flushes > reported) {
      reported = c.flushes;
      std::printf("durable %llu\n", static_cast<unsigned long long>(c.samples_durable));
      std::fflush(stdout);
    }
    if (k % 64 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return 0;
}
