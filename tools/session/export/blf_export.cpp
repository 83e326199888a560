#include "tools/session/export/blf_export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "io/can/trace/blf_writer.hpp"
#include "io/can/trace/candump_reader.hpp"

namespace hil::session {
namespace {

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;
constexpr std::int64_t kMaxSecondsApart = 9'000'000'000;  // ~285 years: fits int64 ns

std::ifstream open_log(const std::filesystem::path& log) {
  std::ifstream in(log, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot open '{}'", log.string()));
  return in;
}

/// N+1 for a name ending in the number N, else 0.
std::uint32_t numbered_channel(const std::string& name) {
  const auto digits = static_cast<std::size_t>(
      std::find_if(name.rbegin(), name.rend(), [](char c) { return c < '0' || c > '9'; }) -
      name.rbegin());
  if (digits == 0 || digits == name.size()) return 0;
  std::uint32_t n = 0;
  const char* first = name.data() + name.size() - digits;
  const auto [end, ec] = std::from_chars(first, name.data() + name.size(), n);
  if (ec != std::errc{} || n >= std::numeric_limits<std::uint16_t>::max()) return 0;
  return n + 1;
}

/// The channel of every interface of the log, in order of first appearance.
std::vector<std::pair<std::string, std::uint16_t>> assign_channels(
    const std::filesystem::path& log) {
  std::ifstream in = open_log(log);
  io::can::CandumpReader reader(in, log.filename().string());
  std::vector<std::string> names;
  for (auto s = reader.next(); s != io::can::CandumpReader::Status::end; s = reader.next()) {
    if (s != io::can::CandumpReader::Status::frame) continue;
    const std::string_view name = reader.line().interface;
    if (std::ranges::find(names, name) == names.end()) names.emplace_back(name);
  }
  std::set<std::uint32_t> taken;
  std::map<std::string, std::uint32_t> channel;
  for (const std::string& name : names) {  // numbered names keep their number
    const std::uint32_t n = numbered_channel(name);
    if (n != 0 && taken.insert(n).second) channel[name] = n;
  }
  std::uint32_t next = 1;
  for (const std::string& name : names) {
    if (channel.contains(name)) continue;
    while (taken.contains(next)) ++next;
    if (next > std::numeric_limits<std::uint16_t>::max()) {
      throw std::runtime_error(
          fmt::format("'{}' has more interfaces than BLF has channels", log.string()));
    }
    taken.insert(next);
    channel[name] = next;
  }
  std::vector<std::pair<std::string, std::uint16_t>> out;
  out.reserve(names.size());
  for (const std::string& name : names) {
    out.emplace_back(name, static_cast<std::uint16_t>(channel[name]));
  }
  return out;
}

}  // namespace

BlfExport export_blf(const std::filesystem::path& log, const std::filesystem::path& blf) {
  BlfExport result;
  result.channels = assign_channels(log);
  std::ifstream in = open_log(log);
  io::can::CandumpReader reader(in, log.filename().string());
  std::ofstream out(blf, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(fmt::format("cannot create '{}'", blf.string()));
  std::unique_ptr<io::can::BlfWriter> writer;
  io::can::CandumpTimestamp origin;
  for (auto s = reader.next(); s != io::can::CandumpReader::Status::end; s = reader.next()) {
    if (s == io::can::CandumpReader::Status::bad_line) {
      result.bad_lines.push_back(reader.describe_bad_line());
      continue;
    }
    const io::can::CandumpLine& line = reader.line();
    if (!writer) {
      origin = line.time;
      writer = std::make_unique<io::can::BlfWriter>(
          out, origin.seconds * kNanosPerSecond + static_cast<std::int64_t>(origin.nanoseconds));
    }
    if (std::abs(line.time.seconds - origin.seconds) > kMaxSecondsApart) {
      result.bad_lines.push_back(
          fmt::format("{}:{}:1: timestamp more than 285 years from the "
                      "first frame's",
                      log.filename().string(), reader.line_number()));
      continue;
    }
    const std::int64_t since_first = (line.time.seconds - origin.seconds) * kNanosPerSecond +
                                     (static_cast<std::int64_t>(line.time.nanoseconds) -
                                      static_cast<std::int64_t>(origin.nanoseconds));
    const auto it = std::ranges::find_if(result.channels,
                                         [&](const auto& c) { return c.first == line.interface; });
    writer->add(since_first, it->second, line.frame,
                line.direction == io::can::CandumpDirection::transmitted);
    ++result.frames;
  }
  if (!writer) writer = std::make_unique<io::can::BlfWriter>(out, 0);  // an empty trace
  writer->finish();
  return result;
}

}  // namespace hil::session
