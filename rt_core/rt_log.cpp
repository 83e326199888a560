#include "rt_core/rt_log.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace hil::rt {

namespace {
spdlog::level::level_enum to_spdlog(RtLogLevel level) {
  switch (level) {
    case RtLogLevel::info:
      return spdlog::level::info;
    case RtLogLevel::warn:
      return spdlog::level::warn;
    case RtLogLevel::error:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}
}  // namespace

std::size_t RtLog::drain(spdlog::logger& logger, std::size_t max_lines) {
  std::size_t shown = 0;
  const std::size_t n = ring_.drain([&](const RtLogEvent& e) {
    if (shown++ >= max_lines) return;
    logger.log(to_spdlog(e.level), fmt::runtime(e.format), e.args[0], e.args[1], e.args[2]);
  });
  if (n > max_lines) logger.warn("... and {} more real-time events not shown", n - max_lines);
  const std::uint64_t dropped_now = dropped();
  if (dropped_now != dropped_reported_) {
    logger.warn("{} real-time log events dropped (ring full)", dropped_now - dropped_reported_);
    dropped_reported_ = dropped_now;
  }
  return n;
}

}  // namespace hil::rt
