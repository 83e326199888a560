#include "tools/session/timing/cyclictest.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

namespace hil::session {

namespace {

constexpr std::size_t kBins = rt::Histogram::kBins;

/// "# Max Latencies: 00123" (one thread) → 123.
std::int64_t summary_value(const std::string& line) {
  const auto colon = line.find(':');
  std::istringstream rest(line.substr(colon + 1));
  std::int64_t value = 0;
  if (!(rest >> value)) throw std::runtime_error("cyclictest: cannot read '" + line + "'");
  return value;
}

}  // namespace

std::string cyclictest_command(const CyclictestSpec& o) {
  std::string cmd = fmt::format(
      "cyclictest --quiet --mlockall --threads=1 --priority={} --interval={} --loops={} "
      "--histogram={}",
      o.priority, o.period / rt::kMicrosecond, o.loops, kBins);
  if (o.cpu) cmd += fmt::format(" --affinity={}", *o.cpu);
  return cmd;
}

rt::HistogramSummary parse_cyclictest_histogram(std::istream& in) {
  rt::HistogramSummary h;
  h.bins.assign(kBins, 0);
  bool saw_max = false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::uint64_t bin = 0;
    std::uint64_t count = 0;
    if (!line.starts_with('#') && fields >> bin >> count) {  // "000012 000345"
      if (bin < kBins) {
        h.bins[bin] = count;
        h.count += count;
      }
    } else if (line.starts_with("# Min Latencies:")) {
      h.min_ns = summary_value(line) * rt::kMicrosecond;
    } else if (line.starts_with("# Avg Latencies:")) {
      h.mean_us = static_cast<double>(summary_value(line));
    } else if (line.starts_with("# Max Latencies:")) {
      h.max_ns = summary_value(line) * rt::kMicrosecond;
      saw_max = true;
    } else if (line.starts_with("# Histogram Overflows:")) {
      h.overflow = static_cast<std::uint64_t>(summary_value(line));
    }
  }
  if (!saw_max || h.count + h.overflow == 0) {
    throw std::runtime_error("cyclictest printed no histogram (no '# Max Latencies' line)");
  }
  h.count += h.overflow;
  return h;
}

rt::HistogramSummary run_cyclictest(const CyclictestSpec& options) {
  const std::string cmd = cyclictest_command(options) + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) throw std::runtime_error("cannot start cyclictest");
  std::string output;
  std::array<char, 4096> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) {
    output.append(buffer.data(), n);
  }
  const int status = pclose(pipe.release());
  if (status != 0) {
    const bool missing = WIFEXITED(status) && WEXITSTATUS(status) == 127;
    throw std::runtime_error(missing ? "cyclictest not found: install it with "
                                       "'apt-get install rt-tests'"
                                     : "cyclictest failed (" + cmd + "): " + output);
  }
  std::istringstream in(output);
  return parse_cyclictest_histogram(in);
}

}  // namespace hil::session
