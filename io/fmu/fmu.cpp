#include "io/fmu/fmu.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <zip.h>

#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "io/fmu/fmi_api.hpp"

namespace hil::io::fmu {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMaxUnpacked = std::uint64_t{1} << 30U;
constexpr std::size_t kLogLine = 2048;

/// The status code both FMI versions share: 0 OK, 1 warning, 2 discard, 3 error, 4 fatal.
template <typename Status>
constexpr int code(Status status) noexcept {
  return static_cast<int>(status);
}

void fmi2_log(fmi2::ComponentEnvironment /*env*/, fmi2::String instance, fmi2::Status status,
              fmi2::String category, fmi2::String message, ...) {
  std::array<char, kLogLine> text{};
  va_list args;
  va_start(args, message);
  std::vsnprintf(text.data(), text.size(), message != nullptr ? message : "", args);
  va_end(args);
  const auto level = status >= fmi2::Status::error     ? spdlog::level::err
                     : status == fmi2::Status::warning ? spdlog::level::warn
                                                       : spdlog::level::info;
  spdlog::log(level, "fmu {} [{}]: {}", instance != nullptr ? instance : "",
              category != nullptr ? category : "", text.data());
}

void fmi3_log(fmi3::InstanceEnvironment env, fmi3::Status status, fmi3::String category,
              fmi3::String message) {
  const auto level = status >= fmi3::Status::error     ? spdlog::level::err
                     : status == fmi3::Status::warning ? spdlog::level::warn
                                                       : spdlog::level::info;
  spdlog::log(level, "fmu {} [{}]: {}", env != nullptr ? static_cast<const char*>(env) : "",
              category != nullptr ? category : "", message != nullptr ? message : "");
}

}  // namespace

struct Fmu::Functions {
  fmi2::Instantiate instantiate2 = nullptr;
  fmi2::SetupExperiment setup2 = nullptr;
  fmi2::EnterInitializationMode enter2 = nullptr;
  fmi2::ExitInitializationMode exit2 = nullptr;
  fmi2::GetReal get2 = nullptr;
  fmi2::SetReal set2 = nullptr;
  fmi2::DoStep step2 = nullptr;
  fmi2::Terminate terminate2 = nullptr;
  fmi2::FreeInstance free2 = nullptr;
  fmi3::InstantiateCoSimulation instantiate3 = nullptr;
  fmi3::EnterInitializationMode enter3 = nullptr;
  fmi3::ExitInitializationMode exit3 = nullptr;
  fmi3::GetFloat64 get3 = nullptr;
  fmi3::SetFloat64 set3 = nullptr;
  fmi3::DoStep step3 = nullptr;
  fmi3::Terminate terminate3 = nullptr;
  fmi3::FreeInstance free3 = nullptr;
  fmi2::CallbackFunctions callbacks2{.logger = fmi2_log,
                                     .allocate_memory = std::calloc,
                                     .free_memory = std::free,
                                     .step_finished = nullptr,
                                     .component_environment = nullptr};
};

void unpack_fmu(const fs::path& file, const fs::path& directory) {
  int error = 0;
  zip_t* archive = zip_open(file.c_str(), ZIP_RDONLY, &error);
  if (archive == nullptr) {
    zip_error_t e;
    zip_error_init_with_code(&e, error);
    const std::string why = zip_error_strerror(&e);
    zip_error_fini(&e);
    throw FmuError(
        fmt::format("{}: not an FMU: cannot open it as a zip archive ({})", file.string(), why));
  }
  const std::unique_ptr<zip_t, int (*)(zip_t*)> closer(archive, zip_close);
  const zip_int64_t entries = zip_get_num_entries(archive, 0);
  std::uint64_t total = 0;
  std::vector<char> buffer(1 << 16);
  for (zip_int64_t i = 0; i < entries; ++i) {
    zip_stat_t st;
    if (zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &st) != 0) continue;
    const std::string name = st.name;
    const fs::path relative = fs::path(name).lexically_normal();
    if (relative.is_absolute() || relative.string().starts_with("..")) {
      throw FmuError(fmt::format("{}: entry \"{}\" would be unpacked outside the FMU's directory",
                                 file.string(), name));
    }
    const fs::path target = directory / relative;
    if (name.ends_with('/')) {
      fs::create_directories(target);
      continue;
    }
    total += st.size;
    if (total > kMaxUnpacked) {
      throw FmuError(fmt::format("{}: more than 1 GiB unpacked", file.string()));
    }
    fs::create_directories(target.parent_path());
    zip_file_t* entry = zip_fopen_index(archive, static_cast<zip_uint64_t>(i), 0);
    if (entry == nullptr) {
      throw FmuError(fmt::format("{}: cannot read \"{}\" from the archive", file.string(), name));
    }
    std::ofstream out(target, std::ios::binary);
    zip_int64_t n = 0;
    while ((n = zip_fread(entry, buffer.data(), buffer.size())) > 0) {
      out.write(buffer.data(), n);
    }
    zip_fclose(entry);
    if (n < 0 || !out) {
      throw FmuError(fmt::format("{}: cannot unpack \"{}\"", file.string(), name));
    }
  }
}

std::unique_ptr<Fmu> Fmu::load(const fs::path& file) {
  std::unique_ptr<Fmu> fmu(new Fmu());
  fmu->file_ = file;
  if (!fs::exists(file)) throw FmuError(fmt::format("{}: no such file", file.string()));
  std::string pattern = (fs::temp_directory_path() / "hilsim-fmu-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw FmuError(fmt::format("{}: cannot create a temporary directory", file.string()));
  }
  fmu->directory_ = pattern;
  unpack_fmu(file, fmu->directory_);

  const fs::path xml = fmu->directory_ / "modelDescription.xml";
  std::ifstream in(xml, std::ios::binary);
  if (!in) {
    throw FmuError(
        fmt::format("{}: no modelDescription.xml at the top of the archive", file.string()));
  }
  std::stringstream text;
  text << in.rdbuf();
  fmu->description_ = parse_model_description(
      text.str(), fmt::format("{}/modelDescription.xml", file.filename().string()));
  const ModelDescription& md = fmu->description_;
  if (fs::exists(fmu->directory_ / "binaries")) {
    for (const auto& entry : fs::directory_iterator(fmu->directory_ / "binaries")) {
      if (entry.is_directory()) fmu->platforms_.push_back(entry.path().filename().string());
    }
  }
  std::ranges::sort(fmu->platforms_);
  if (!md.co_simulation) {
    throw FmuError(
        fmt::format("{}: no <CoSimulation> interface{}: hilsim runs co-simulation "
                    "FMUs",
                    file.string(), md.model_exchange ? " (model exchange only)" : ""));
  }
  const bool v3 = md.version == FmiVersion::fmi3;
  const std::string platform = v3 ? "x86_64-linux" : "linux64";
  const fs::path binary = fmu->directory_ / "binaries" / platform / (md.model_identifier + ".so");
  if (!fs::exists(binary)) {
    throw FmuError(
        fmt::format("{}: no binary for this platform: expected binaries/{}/{}.so; the FMU has {}",
                    file.string(), platform, md.model_identifier,
                    fmu->platforms_.empty()
                        ? std::string("no binaries (a source-only FMU)")
                        : fmt::format("binaries for {}", fmt::join(fmu->platforms_, ", "))));
  }
  fmu->library_ = dlopen(binary.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (fmu->library_ == nullptr) {
    throw FmuError(fmt::format("{}: cannot load {}: {}", file.string(), binary.string(),
                               dlerror()));  // NOLINT(concurrency-mt-unsafe): setup, one thread
  }
  fmu->f_ = std::make_unique<Functions>();
  Functions& f = *fmu->f_;
  const auto resolve = [&]<typename F>(F& target, const char* name) {
    void* symbol = dlsym(fmu->library_, name);
    if (symbol == nullptr) {
      throw FmuError(fmt::format("{}: the binary has no function {}", file.string(), name));
    }
    target = reinterpret_cast<F>(symbol);
  };
  if (v3) {
    resolve(f.instantiate3, "fmi3InstantiateCoSimulation");
    resolve(f.enter3, "fmi3EnterInitializationMode");
    resolve(f.exit3, "fmi3ExitInitializationMode");
    resolve(f.get3, "fmi3GetFloat64");
    resolve(f.set3, "fmi3SetFloat64");
    resolve(f.step3, "fmi3DoStep");
    resolve(f.terminate3, "fmi3Terminate");
    resolve(f.free3, "fmi3FreeInstance");
  } else {
    resolve(f.instantiate2, "fmi2Instantiate");
    resolve(f.setup2, "fmi2SetupExperiment");
    resolve(f.enter2, "fmi2EnterInitializationMode");
    resolve(f.exit2, "fmi2ExitInitializationMode");
    resolve(f.get2, "fmi2GetReal");
    resolve(f.set2, "fmi2SetReal");
    resolve(f.step2, "fmi2DoStep");
    resolve(f.terminate2, "fmi2Terminate");
    resolve(f.free2, "fmi2FreeInstance");
  }
  return fmu;
}

Fmu::~Fmu() {
  if (instance_ != nullptr) {
    if (!terminated_) terminate();
    if (f_->free3 != nullptr) f_->free3(instance_);
    if (f_->free2 != nullptr) f_->free2(instance_);
  }
  if (library_ != nullptr) dlclose(library_);
  std::error_code ignored;
  if (!directory_.empty()) fs::remove_all(directory_, ignored);
}

void Fmu::instantiate(std::string_view instance_name, double start_time,
                      std::optional<double> stop_time) {
  instance_name_ = instance_name;
  const bool v3 = description_.version == FmiVersion::fmi3;
  const fs::path resources = directory_ / "resources";
  if (v3) {
    const std::string path = resources.string() + "/";
    instance_ = f_->instantiate3(instance_name_.c_str(), description_.token.c_str(), path.c_str(),
                                 false, true, false, false, nullptr, 0,
                                 const_cast<char*>(instance_name_.c_str()), fmi3_log, nullptr);
  } else {
    const std::string uri = "file://" + resources.string() + "/";
    instance_ = f_->instantiate2(instance_name_.c_str(), fmi2::Type::co_simulation,
                                 description_.token.c_str(), uri.c_str(), &f_->callbacks2, 0, 1);
  }
  if (instance_ == nullptr) {
    throw FmuError(fmt::format("{}: the FMU refused to instantiate", file_.string()));
  }
  int status = 0;
  if (v3) {
    status = code(f_->enter3(instance_, false, 0.0, start_time, stop_time.has_value(),
                             stop_time.value_or(0.0)));
  } else {
    status = code(f_->setup2(instance_, 0, 0.0, start_time, stop_time.has_value() ? 1 : 0,
                             stop_time.value_or(0.0)));
    if (status <= code(fmi2::Status::warning)) status = code(f_->enter2(instance_));
  }
  if (status > 1) {
    throw FmuError(
        fmt::format("{}: entering initialisation mode failed (status {})", file_.string(), status));
  }
}

void Fmu::exit_initialization() {
  const int status = f_->exit3 != nullptr ? code(f_->exit3(instance_)) : code(f_->exit2(instance_));
  if (status > 1) {
    throw FmuError(
        fmt::format("{}: leaving initialisation mode failed (status {})", file_.string(), status));
  }
}

int Fmu::set_real(std::span<const std::uint32_t> refs, std::span<const double> values) noexcept {
  if (f_->set3 != nullptr) {
    return code(f_->set3(instance_, refs.data(), refs.size(), values.data(), values.size()));
  }
  return code(f_->set2(instance_, refs.data(), refs.size(), values.data()));
}

int Fmu::get_real(std::span<const std::uint32_t> refs, std::span<double> values) noexcept {
  if (f_->get3 != nullptr) {
    return code(f_->get3(instance_, refs.data(), refs.size(), values.data(), values.size()));
  }
  return code(f_->get2(instance_, refs.data(), refs.size(), values.data()));
}

int Fmu::do_step(double time, double step) noexcept {
  if (f_->step3 != nullptr) {
    bool event = false;
    bool terminate = false;
    bool early = false;
    double last = time;
    return code(f_->step3(instance_, time, step, true, &event, &terminate, &early, &last));
  }
  return code(f_->step2(instance_, time, step, 1));
}

void Fmu::terminate() noexcept {
  if (instance_ == nullptr || terminated_) return;
  terminated_ = true;
  if (f_->terminate3 != nullptr) {
    (void)f_->terminate3(instance_);
  } else {
    (void)f_->terminate2(instance_);
  }
}

}  // namespace hil::io::fmu
