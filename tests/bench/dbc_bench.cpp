// DBC codec figures: decode and encode of a whole message with the compiled codec —
// an 8-byte classic message with 8 signals and a 64-byte CAN FD message with 32 signals, each
// in Intel and in Motorola byte order. Signals are scaled (factor 0.1, offset −10), some signed,
// most crossing byte boundaries.
//
//   build/release/tests/bench/dbc_bench

#include <benchmark/benchmark.h>

#include <array>
#include <string>
#include <vector>

#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_parser.hpp"

namespace {

namespace dbc = hil::io::can::dbc;

/// A message of `length` bytes whose signals of the given bit lengths are packed back to back,
/// Intel from bit 0 upwards or Motorola from byte 0's MSB onwards.
dbc::CompiledMessage packed_message(std::uint32_t length, const std::vector<std::uint32_t>& bits,
                                    bool intel) {
  std::string text = "BO_ 1 Bench: " + std::to_string(length) + " X\n";
  std::uint32_t offset = 0;  // bits used so far, MSB-first for Motorola
  for (std::size_t i = 0; i < bits.size(); ++i) {
    // Motorola start bit = the MSB's sawtooth number: byte offset/8, bit 7 − offset%8.
    const std::uint32_t start = intel ? offset : 8 * (offset / 8) + 7 - offset % 8;
    text += " SG_ s" + std::to_string(i) + " : " + std::to_string(start) + "|" +
            std::to_string(bits[i]) + (intel ? "@1" : "@0") + (i % 3 == 0 ? "-" : "+") +
            " (0.1,-10) [0|0] \"\" X\n";
    offset += bits[i];
  }
  const dbc::Database db = dbc::parse_dbc(text, "bench.dbc");
  return dbc::compile(db.messages.at(0));
}

dbc::CompiledMessage classic(bool intel) {
  return packed_message(8, {12, 4, 8, 8, 14, 6, 2, 10}, intel);
}

dbc::CompiledMessage fd64(bool intel) {
  std::vector<std::uint32_t> bits;
  bits.reserve(32);
  for (int i = 0; i < 32; ++i) bits.push_back(i % 2 == 0 ? 13 : 19);  // 32·16 = 512 bits
  return packed_message(64, bits, intel);
}

void decode(benchmark::State& state, const dbc::CompiledMessage& m) {
  std::array<std::uint8_t, 64> payload{};
  for (std::size_t i = 0; i < payload.size(); ++i)
    payload[i] = static_cast<std::uint8_t>(37 * i + 11);
  std::vector<dbc::SignalValue> values(m.signals.size());
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(payload);
    const dbc::DecodeResult r = dbc::decode_message(
        m, std::span<const std::uint8_t>(payload.data(), m.frame_length), values);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(values.data());
  }
  state.counters["signals"] = static_cast<double>(m.signals.size());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(m.signals.size()));
}

void encode(benchmark::State& state, const dbc::CompiledMessage& m) {
  std::vector<double> physical(m.signals.size());
  for (std::size_t i = 0; i < physical.size(); ++i)
    physical[i] = 0.7 * static_cast<double>(i) - 3.0;
  hil::io::can::CanFrame frame;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    benchmark::DoNotOptimize(physical.data());
    const dbc::EncodeResult r = dbc::encode_frame(m, physical, frame);
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(frame);
  }
  state.counters["signals"] = static_cast<double>(m.signals.size());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(m.signals.size()));
}

void BM_DecodeClassic8Intel(benchmark::State& s) { decode(s, classic(true)); }
void BM_DecodeClassic8Motorola(benchmark::State& s) { decode(s, classic(false)); }
void BM_EncodeClassic8Intel(benchmark::State& s) { encode(s, classic(true)); }
void BM_EncodeClassic8Motorola(benchmark::State& s) { encode(s, classic(false)); }
void BM_DecodeFd64Intel(benchmark::State& s) { decode(s, fd64(true)); }
void BM_DecodeFd64Motorola(benchmark::State& s) { decode(s, fd64(false)); }
void BM_EncodeFd64Intel(benchmark::State& s) { encode(s, fd64(true)); }
void BM_EncodeFd64Motorola(benchmark::State& s) { encode(s, fd64(false)); }

BENCHMARK(BM_DecodeClassic8Intel);
BENCHMARK(BM_DecodeClassic8Motorola);
BENCHMARK(BM_EncodeClassic8Intel);
BENCHMARK(BM_EncodeClassic8Motorola);
BENCHMARK(BM_DecodeFd64Intel);
BENCHMARK(BM_DecodeFd64Motorola);
BENCHMARK(BM_EncodeFd64Intel);
BENCHMARK(BM_EncodeFd64Motorola);

}  // namespace

BENCHMARK_MAIN();
