#include "config/rig/rig_locator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <stdexcept>

namespace hil::config {

namespace {

bool is_path(std::string_view name) {
  return name.find('/') != std::string_view::npos || name.ends_with(".pbtxt");
}

/// "ravon, hmmwv" — what the search path offers, for error messages.
std::string listing(const std::vector<std::filesystem::path>& dirs, bool scenarios) {
  std::set<std::string> names;
  for (const auto& dir : dirs) {
    const std::filesystem::path where = scenarios ? dir / "scenarios" : dir;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(where, ec)) {
      if (scenarios && entry.path().extension() == ".pbtxt") {
        names.insert(entry.path().stem().string());
      } else if (!scenarios && std::filesystem::exists(entry.path() / "rig.pbtxt") &&
                 !std::filesystem::exists(entry.path() / "manifest.json")) {  // not a run
        names.insert(entry.path().filename().string());
      }
    }
  }
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

/// The running executable (/proc/self/exe, symbolic links resolved); empty when unknown.
std::filesystem::path executable() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe;
}

/// Whether `exe` lies in the build tree it was built in (build/<preset>/…): only then is the
/// source tree's hil_rigs searched, so an installed copy never names the tree it came from.
bool in_build_tree(const std::filesystem::path& exe) {
  std::error_code ec;
  const std::filesystem::path build = std::filesystem::canonical(HIL_BUILD_DIR, ec);
  if (ec || !std::filesystem::exists(build / "CMakeCache.txt")) return false;
  const std::filesystem::path inside = exe.lexically_relative(build);
  return !inside.empty() && *inside.begin() != "..";
}

/// Whether `dir` is one of `dirs` (./hil_rigs is the source tree's when run from there).
bool listed(const std::vector<std::filesystem::path>& dirs, const std::filesystem::path& dir) {
  return std::ranges::any_of(dirs, [&](const std::filesystem::path& d) {
    std::error_code ec;
    return std::filesystem::equivalent(d, dir, ec);
  });
}

std::filesystem::path locate(std::string_view name, bool scenario) {
  if (is_path(name)) {
    if (!std::filesystem::exists(name)) {
      throw std::runtime_error(
          fmt::format("{} {}: no such file", scenario ? "scenario" : "rig", name));
    }
    return {name};
  }
  const std::vector<std::filesystem::path> dirs = rig_search_path();
  std::string looked;
  for (const auto& dir : dirs) {
    std::filesystem::path file = scenario ? dir / "scenarios" / (std::string(name) + ".pbtxt")
                                          : dir / std::string(name) / "rig.pbtxt";
    if (std::filesystem::exists(file)) return file;
    looked += fmt::format("\n  {}", file.string());
  }
  throw std::runtime_error(fmt::format(
      "no {} \"{}\"; looked for{}\n{} available: {} (or give a path to a .pbtxt file; set "
      "HILSIM_RIGS to add a directory)",
      scenario ? "scenario" : "rig", name, looked.empty() ? " nothing: no rig directory" : looked,
      scenario ? "scenarios" : "rigs", listing(dirs, scenario)));
}

}  // namespace

std::vector<std::filesystem::path> rig_search_path() {
  std::vector<std::filesystem::path> dirs;
  // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing sets the environment after main starts
  if (const char* env = std::getenv("HILSIM_RIGS"); env != nullptr && *env != '\0') {
    dirs.emplace_back(env);
  }
  dirs.emplace_back("hil_rigs");  // a project of rigs in the working directory
  const std::filesystem::path exe = executable();
  if (!exe.empty()) {
    dirs.push_back((exe.parent_path() / HIL_RIGS_FROM_BINDIR).lexically_normal());
    if (in_build_tree(exe)) dirs.emplace_back(HIL_SOURCE_RIGS_DIR);
  }
  std::vector<std::filesystem::path> existing;
  for (const auto& d : dirs) {
    if (std::filesystem::is_directory(d) && !listed(existing, d)) existing.push_back(d);
  }
  return existing;
}

std::filesystem::path locate_rig(std::string_view rig) { return locate(rig, false); }

std::filesystem::path locate_scenario(std::string_view scenario,
                                      const std::filesystem::path& relative_to) {
  const std::filesystem::path as_path(scenario);
  if (!relative_to.empty() && is_path(scenario) && as_path.is_relative()) {
    return locate((relative_to.parent_path() / as_path).string(), true);
  }
  return locate(scenario, true);
}

std::string rig_name(std::string_view rig) {
  if (!is_path(rig)) return std::string(rig);
  const std::filesystem::path p(rig);
  return p.filename() == "rig.pbtxt" ? p.parent_path().filename().string() : p.stem().string();
}

}  // namespace hil::config
