// libFuzzer target for the automation API's calls (docs/api.md) past their parsing: a capture
// request is resolved against a small channel table and run over 400 ticks with ticks lost in
// the middle, as the console thread runs it; a wait_for's condition is checked; a fault is read
// into config/fault.proto from its JSON. Traps when a promise breaks: blocks in tick order on
// the capture's grid, each shot's sample count as its blocks say, nothing beyond its stop.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target run_api_call_fuzz

#include <fnmatch.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config/fault_command.hpp"
#include "io/console/capture.hpp"
#include "io/console/console_protocol.hpp"

namespace {

using namespace hil::io::console;

void require(bool promise) {
  if (!promise) __builtin_trap();
}

constexpr std::array<const char*, 6> kChannels{
    "a.x", "a.y", "b.z", "vehicle.body.speed", "vehicle.wheel.fl.speed", "env.wind.speed"};

std::optional<hil::rt::ChannelCondition> resolve(const hil::rt::ConditionText& c) {
  for (std::uint32_t i = 0; i < kChannels.size(); ++i) {
    if (c.channel == kChannels[i]) {
      return hil::rt::ChannelCondition{.channel = {i}, .op = c.op, .threshold = c.threshold};
    }
  }
  return std::nullopt;
}

std::optional<CaptureTrigger> trigger(const TriggerRequest& t) {
  CaptureTrigger out{
      .kind = static_cast<CaptureTrigger::Kind>(t.kind), .tick = t.tick, .edge = t.edge};
  if (t.kind == TriggerRequest::Kind::condition) {
    out.condition = resolve(t.condition);
    if (!out.condition) return std::nullopt;
  }
  return out;
}

void run_capture(const CaptureRequest& r, std::uint8_t seed) {
  CaptureSpec spec{.id = r.id,
                   .decimation = static_cast<std::uint32_t>(r.decimation),
                   .pre_ticks = std::min<std::int64_t>(r.pre_trigger_ticks, 1000),
                   .duration_ticks = r.duration_ticks,
                   .repeat = r.repeat};
  for (const std::string& pattern : r.channels) {
    for (std::uint32_t i = 0; i < kChannels.size(); ++i) {
      if (fnmatch(pattern.c_str(), kChannels[i], 0) == 0) spec.channels.push_back(i);
    }
  }
  if (spec.channels.empty() || spec.channels.size() > 64) return;
  const auto start = trigger(r.start);
  if (!start) return;
  spec.start = *start;
  if (r.stop) {
    spec.stop = trigger(*r.stop);
    if (!spec.stop) return;
  }
  Capture capture(spec);
  std::vector<double> row(kChannels.size());
  const std::int64_t gap_from = 100 + seed, gap_to = gap_from + (seed % 17);
  std::int64_t last_tick = -1;
  std::map<std::uint32_t, std::uint64_t> samples;  // per shot, from the blocks
  for (std::int64_t k = 0; k < 400; ++k) {
    if (k >= gap_from && k < gap_to) continue;
    for (std::size_t c = 0; c < row.size(); ++c) {
      row[c] = static_cast<double>((k * (static_cast<std::int64_t>(c) + 1)) % 50) * 0.1;
    }
    capture.add_tick(k, row);
    if (k % 37 == 0 || k == 399) capture.flush();
    for (const Capture::Output& o : capture.output()) {
      if (o.block) {
        require(o.block->samples > 0 && o.block->samples <= Capture::kBlockSamples);
        require(o.block->values.size() == o.block->samples * spec.channels.size());
        require(o.block->first_tick > last_tick);
        last_tick = o.block->first_tick + (o.block->samples - 1) * spec.decimation;
        require(last_tick <= k);
        samples[o.block->shot] += o.block->samples;
      }
      if (o.notice && o.notice->kind == CaptureNotice::Kind::ended) {
        require(o.notice->samples == samples[o.notice->shot]);
        require(o.notice->tick <= k);
      }
    }
    capture.output().clear();
  }
  capture.end("run ended");
  require(capture.done());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ClientMessage m = parse_client_message(text);
  require(m.request.has_value() == m.error.empty());
  if (!m.request) return 0;
  if (const auto* c = std::get_if<CaptureRequest>(&*m.request)) {
    require(c->decimation >= 1);
    run_capture(*c, size > 0 ? data[size - 1] : 0);
  } else if (const auto* w = std::get_if<WaitFor>(&*m.request)) {
    require(w->timeout_s > 0);
    if (const auto condition = resolve(w->condition)) {
      const bool equal_holds = condition->holds(w->condition.threshold);
      using hil::rt::Compare;
      require(equal_holds ==
              (condition->op == Compare::greater_equal || condition->op == Compare::less_equal ||
               condition->op == Compare::equal));
    }
  } else if (const auto* command = std::get_if<Command>(&*m.request)) {
    if (command->kind == Command::Kind::fault) {
      static const hil::rt::ChannelTable no_channels;
      try {  // a fault of the API, checked against a rig without channels or buses
        (void)hil::config::parse_fault_json(command->fault_json, no_channels, {});
      } catch (const std::invalid_argument&) {
      }
    }
  }
  return 0;
}
