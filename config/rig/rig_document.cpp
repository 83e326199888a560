#include "config/rig/rig_document.hpp"

#include <fmt/format.h>
#include <google/protobuf/text_format.h>

#include <fstream>
#include <stdexcept>

#include "config/rig.pb.h"
#include "config/rig/loader.hpp"

namespace hil::config {

struct RigDocument {
  RigConfig message;
};

std::shared_ptr<const RigDocument> keep_document(RigConfig merged) {
  return std::make_shared<const RigDocument>(RigDocument{.message = std::move(merged)});
}

namespace {

/// Copies `file` into `dir`, appends its bytes to `contents` (for the config hash) and
/// returns the name the copy has there.
std::string copy_into(const std::filesystem::path& file, const std::filesystem::path& dir,
                      std::string& contents) {
  const std::filesystem::path target = dir / file.filename();
  std::error_code ec;
  std::filesystem::copy_file(file, target, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) {
    throw std::runtime_error(
        fmt::format("cannot copy {} into the run directory: {}", file.string(), ec.message()));
  }
  std::ifstream in(target, std::ios::binary);
  contents.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return file.filename().string();
}

}  // namespace

std::string rig_text(const RigSpec& rig) {
  std::string text;
  if (rig.document) google::protobuf::TextFormat::PrintToString(rig.document->message, &text);
  return text;
}

std::string write_run_rig(const RigSpec& settings, const std::filesystem::path& dir,
                          std::span<const FmuThread> threads) {
  RigConfig rig = settings.document ? settings.document->message : RigConfig();
  const auto fmus = std::min(threads.size(), static_cast<std::size_t>(rig.fmus_size()));
  for (std::size_t i = 0; i < fmus; ++i) {
    rig.mutable_fmus(static_cast<int>(i))
        ->set_thread(threads[i] == FmuThread::worker ? Fmu::WORKER : Fmu::RT_THREAD);
  }
  std::string files;                      // the copied files' bytes: part of what the hash covers
  for (Fmu& fmu : *rig.mutable_fmus()) {  // replay resolves it against the run directory
    if (fmu.has_path()) fmu.set_path(copy_into(fmu.path(), dir, files));
  }
  for (CanBus& bus : *rig.mutable_can()->mutable_buses()) {
    if (bus.has_dbc()) bus.set_dbc(copy_into(bus.dbc(), dir, files));
  }
  if (rig.terrain().has_dem()) {
    Terrain::Dem& dem = *rig.mutable_terrain()->mutable_dem();
    if (dem.has_heights()) dem.set_heights(copy_into(dem.heights(), dir, files));
    if (dem.has_surfaces()) dem.set_surfaces(copy_into(dem.surfaces(), dir, files));
  }
  if (settings.diagnostics && rig.has_diagnostics()) {  // what the run decided, for its replay
    rig.mutable_diagnostics()->set_read_dtcs_every_ms(
        settings.diagnostics->read_dtcs_every_s.value_or(0.0) * 1000.0);
  }
  std::string text;
  google::protobuf::TextFormat::PrintToString(rig, &text);
  text = "# The rig as this run ran it (overlays applied); hilsim replay rebuilds it from here.\n" +
         text;
  std::ofstream out(dir / "rig.pbtxt");
  out << text;
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", (dir / "rig.pbtxt").string()));
  return text + files;
}

}  // namespace hil::config
