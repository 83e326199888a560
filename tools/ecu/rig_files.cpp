#include "tools/ecu/rig_files.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>

namespace hil::ecu {

namespace {

namespace fs = std::filesystem;

/// The first `dir/relative` that exists, or a message naming every place tried and what
/// each directory offers (`list` names an entry of a hil_rigs directory, or empty).
fs::path search(std::string_view what, std::string_view name, const std::string& relative,
                std::string (*list)(const fs::directory_entry&)) {
  const fs::path given(name);
  std::error_code ec;
  if (fs::is_regular_file(given, ec)) return given;
  std::string tried;
  std::set<std::string> known;
  for (const fs::path& dir : rig_directories()) {
    const fs::path candidate = dir / relative;
    if (fs::is_regular_file(candidate, ec)) return candidate;
    tried += fmt::format("\n  {}", candidate.string());
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
      const std::string n = list(e);
      if (!n.empty()) known.insert(n);
    }
  }
  std::string names;
  for (const std::string& n : known) names += (names.empty() ? "" : ", ") + n;
  throw std::runtime_error(fmt::format("no {} \"{}\"; looked for{}\nknown {}s: {}", what, name,
                                       tried.empty() ? " a hil_rigs directory (none found; set "
                                                       "HILSIM_RIGS)"
                                                     : tried,
                                       what, names.empty() ? "none" : names));
}

}  // namespace

std::vector<fs::path> rig_directories() {
  std::vector<fs::path> dirs;
  std::error_code ec;
  const auto add = [&](const fs::path& d) {
    if (fs::is_directory(d, ec)) dirs.push_back(d);
  };
  if (const char* env = std::getenv("HILSIM_RIGS"); env != nullptr && *env != '\0') add(env);
  add("hil_rigs");
#ifdef HIL_RIGS_DIR
  add(HIL_RIGS_DIR);
#endif
  return dirs;
}

fs::path find_rig_file(std::string_view name_or_path) {
  return search("rig", name_or_path, std::string(name_or_path) + "/rig.pbtxt",
                [](const fs::directory_entry& e) -> std::string {
                  std::error_code ec;
                  return fs::is_regular_file(e.path() / "rig.pbtxt", ec)
                             ? e.path().filename().string()
                             : std::string();
                });
}

fs::path find_scenario_file(std::string_view name_or_path) {
  return search("scenario", name_or_path, "scenarios/" + std::string(name_or_path) + ".pbtxt",
                [](const fs::directory_entry& e) -> std::string {
                  if (e.path().filename() != "scenarios") return {};
                  std::string names;
                  std::error_code ec;
                  for (const fs::directory_entry& s : fs::directory_iterator(e.path(), ec)) {
                    if (s.path().extension() != ".pbtxt") continue;
                    names += (names.empty() ? "" : ", ") + s.path().stem().string();
                  }
                  return names;
                });
}

}  // namespace hil::ecu
