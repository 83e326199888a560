// CAN transport costs: cannelloni packet encode + decode with N frames, virtual bus
// send + receive per frame, SLCAN format + parse per frame, and one cannelloni tick over UDP
// loopback (send N, flush, receive N: the syscalls included).
//   build/release/tests/bench/can_transport_bench

#include <benchmark/benchmark.h>

#include <array>
#include <string>
#include <vector>

#include "io/can/transport/cannelloni_codec.hpp"
#include "io/can/transport/cannelloni_transport.hpp"
#include "io/can/transport/slcan_codec.hpp"
#include "io/can/transport/transport_factory.hpp"

namespace {

using hil::io::can::CanFrame;
using hil::io::can::TimedFrame;
namespace cn = hil::io::can::cannelloni;

CanFrame frame(std::uint32_t id, std::uint8_t length, bool fd) {
  CanFrame f;
  f.id = id & 0x7FF;
  f.length = length;
  f.flags = fd ? static_cast<std::uint8_t>(hil::io::can::kFd | hil::io::can::kBrs) : 0;
  for (std::uint8_t i = 0; i < length; ++i) f.data[i] = static_cast<std::uint8_t>(id + i);
  return f;
}

/// Encode N frames into one packet and decode it again. Arg 0: frames; arg 1: 1 for FD 64-byte
/// frames, 0 for classic 8-byte ones.
void BM_CannelloniEncodeDecode(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const bool fd = state.range(1) != 0;
  std::vector<CanFrame> frames;
  for (std::uint32_t i = 0; i < n; ++i) frames.push_back(frame(i, fd ? 64 : 8, fd));
  std::vector<std::uint8_t> buffer(65'507);
  cn::PacketWriter writer(buffer);
  std::vector<CanFrame> decoded(n);
  std::uint8_t sequence = 0;
  std::size_t packet_bytes = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    writer.begin(sequence++);
    for (const CanFrame& f : frames) (void)writer.append(f);
    const auto packet = writer.finish();
    packet_bytes = packet.size();
    cn::PacketReader reader(packet);
    std::size_t k = 0;
    while (reader.next(decoded[k])) ++k;
    benchmark::DoNotOptimize(decoded.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * packet_bytes));
  state.counters["packet_bytes"] = static_cast<double>(packet_bytes);
}
BENCHMARK(BM_CannelloniEncodeDecode)
    ->ArgsProduct({{1, 8, 32, 107}, {0}})  // 107 classic frames: 1396 bytes, the 1400 default
    ->ArgsProduct({{1, 8, 19}, {1}});      // 19 FD frames: 1335 bytes

/// Virtual bus, two endpoints on this thread: send one frame, receive it on the other side.
void BM_VirtualSendReceive(benchmark::State& state) {
  const auto a = hil::io::can::open_transport("virtual:bench");
  const auto b = hil::io::can::open_transport("virtual:bench");
  const CanFrame f = frame(0x123, 8, false);
  std::array<TimedFrame, 1> out{};
  std::int64_t tick = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(a->send(f, tick));
    benchmark::DoNotOptimize(b->receive(out, tick++));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VirtualSendReceive);

/// Virtual bus, a tick's burst: send N frames, then drain them in one receive().
void BM_VirtualBurst(benchmark::State& state) {
  const auto a = hil::io::can::open_transport("virtual:bench_burst");
  const auto b = hil::io::can::open_transport("virtual:bench_burst");
  const auto n = static_cast<std::size_t>(state.range(0));
  const CanFrame f = frame(0x123, 8, false);
  std::vector<TimedFrame> out(n);
  std::int64_t tick = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    for (std::size_t i = 0; i < n; ++i) benchmark::DoNotOptimize(a->send(f, tick));
    benchmark::DoNotOptimize(b->receive(out, tick++));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_VirtualBurst)->Arg(32);

/// SLCAN: format one frame as a line and parse it back. Arg: 1 for FD 64 bytes, 0 classic 8.
void BM_SlcanFormatParse(benchmark::State& state) {
  const bool fd = state.range(0) != 0;
  const CanFrame f = frame(0x123, fd ? 64 : 8, fd);
  std::array<char, hil::io::can::slcan::kMaxFormattedBytes> line{};
  CanFrame back;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    const std::size_t n = hil::io::can::slcan::format_frame(f, line);
    benchmark::DoNotOptimize(hil::io::can::slcan::parse_line({line.data(), n - 1}, back));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SlcanFormatParse)->Arg(0)->Arg(1);

/// cannelloni over UDP loopback: one tick of N classic frames — send, flush (one packet),
/// receive on the other transport until all N arrived.
void BM_CannelloniLoopbackTick(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  auto a = hil::io::can::open_transport("cannelloni://127.0.0.1:9?local=127.0.0.1:0");
  const auto a_port = dynamic_cast<const hil::io::can::CannelloniTransport&>(*a).local_port();
  const auto b = hil::io::can::open_transport("cannelloni://127.0.0.1:" + std::to_string(a_port) +
                                              "?local=127.0.0.1:0");
  const auto b_port = dynamic_cast<const hil::io::can::CannelloniTransport&>(*b).local_port();
  a.reset();  // reopen a on the same port, now with b as its peer
  a = hil::io::can::open_transport("cannelloni://127.0.0.1:" + std::to_string(b_port) +
                                   "?local=127.0.0.1:" + std::to_string(a_port));
  const CanFrame f = frame(0x123, 8, false);
  std::vector<TimedFrame> out(n);
  std::int64_t tick = 0;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    for (std::size_t i = 0; i < n; ++i) benchmark::DoNotOptimize(a->send(f, tick));
    a->flush(tick);
    std::size_t got = 0;
    for (int spins = 0; got < n && spins < 10'000'000; ++spins) {
      got += b->receive(std::span(out).subspan(got), tick);
    }
    if (got < n) {
      state.SkipWithError("a loopback packet was lost");
      break;
    }
    ++tick;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_CannelloniLoopbackTick)->Arg(1)->Arg(32);

}  // namespace

BENCHMARK_MAIN();
