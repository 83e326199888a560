#include "io/console/console_assets.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace hil::io::console {

namespace {

std::string_view mime_of(std::string_view name) noexcept {
  const auto ends = [&](std::string_view ext) { return name.ends_with(ext); };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js") || ends(".mjs")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".png")) return "image/png";
  if (ends(".json")) return "application/json";
  return "application/octet-stream";
}

/// "/" → "index.html", "/assets/x.js" → "x.js"; "" for anything else (or a path that
/// leaves the directory).
std::string_view asset_name(std::string_view url_path) noexcept {
  if (url_path == "/" || url_path == "/index.html") return "index.html";
  constexpr std::string_view prefix = "/assets/";
  if (!url_path.starts_with(prefix)) return {};
  const std::string_view name = url_path.substr(prefix.size());
  if (name.empty() || name.find('/') != std::string_view::npos || name.starts_with('.')) {
    return {};
  }
  return name;
}

std::optional<ServedAsset> from_disk(const std::filesystem::path& web, std::string_view name) {
  for (const std::filesystem::path& dir :
       {web / "src", web / "node_modules/uplot/dist", web / "node_modules/three/build",
        web / "node_modules/three/examples/jsm/controls"}) {
    std::ifstream in(dir / std::string(name), std::ios::binary);
    if (!in) continue;
    std::ostringstream body;
    body << in.rdbuf();
    return ServedAsset{.body = body.str(), .mime = std::string(mime_of(name)), .etag = {}};
  }
  return std::nullopt;
}

}  // namespace

std::optional<ServedAsset> find_asset(std::string_view url_path) {
  const std::string_view name = asset_name(url_path);
  if (name.empty()) return std::nullopt;
  if (const char* dir = std::getenv("HILSIM_CONSOLE_ASSETS"); dir != nullptr && *dir != '\0') {
    return from_disk(dir, name);
  }
  for (const Asset& a : embedded_assets()) {
    if (a.name != name) continue;
    return ServedAsset{
        .body = std::string(reinterpret_cast<const char*>(a.bytes.data()), a.bytes.size()),
        .mime = std::string(a.mime),
        .etag = std::string(a.etag)};
  }
  return std::nullopt;
}

}  // namespace hil::io::console
