#pragma once
// The page's files, embedded in the binary at build time (embed_assets.cmake: io/console/web/
// src/*, uPlot and three.js from io/console/web/node_modules), so the console works with no
// network and no files beside the binary. HILSIM_CONSOLE_ASSETS=<io/console/web> serves them
// from disk instead (page development without rebuilding).

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace hil::io::console {

struct Asset {
  std::string_view name;  ///< "index.html", "app.js", "uPlot.iife.min.js"
  std::string_view mime;
  std::string_view etag;  ///< quoted, from the content
  std::span<const unsigned char> bytes;
};

/// Every embedded file (generated source).
[[nodiscard]] std::span<const Asset> embedded_assets() noexcept;

/// A served file: its bytes (owned when read from disk), MIME type and ETag.
struct ServedAsset {
  std::string body;
  std::string mime;
  std::string etag;
};

/// The file for a URL path ("/" is index.html, "/assets/<name>" the others), from
/// HILSIM_CONSOLE_ASSETS when set, else embedded; nullopt when there is none.
[[nodiscard]] std::optional<ServedAsset> find_asset(std::string_view url_path);

}  // namespace hil::io::console
