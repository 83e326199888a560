#include "io/console/console_server.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "io/console/server_core.hpp"

namespace hil::io::console {

class ConsoleServer::Impl {
 public:
  Impl(const ConsoleSpec& options, ConsoleFeed feed, const std::filesystem::path& runtime_dir)
      : core(options, std::move(feed)) {
    using detail::tcp;
    boost::system::error_code ec;
    const tcp::endpoint endpoint{boost::asio::ip::make_address(options.address), options.port};
    core.acceptor.open(endpoint.protocol(), ec);
    if (!ec) core.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) core.acceptor.bind(endpoint, ec);
    if (!ec) core.acceptor.listen(boost::asio::socket_base::max_listen_connections, ec);
    if (ec) {
      throw std::runtime_error(
          fmt::format("cannot listen on {}:{} ({})", options.address, options.port, ec.message()));
    }
    core.port = core.acceptor.local_endpoint().port();
    core.bound_loopback = endpoint.address().is_loopback();
    file = runtime_dir / fmt::format("console-{}.token", core.port);
    write_token();
  }

  void write_token() const {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
      throw std::runtime_error(
          fmt::format("cannot write the operator token to '{}'", file.string()));
    }
    const std::string line = core.token + "\n";
    const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
    ::close(fd);
    if (!ok) throw std::runtime_error(fmt::format("cannot write '{}'", file.string()));
  }

  ~Impl() {
    if (thread.joinable()) {  // what the clients were told last (the stop's ack, the final
                              // status) reaches them: up to a second for their queues
      boost::asio::post(core.io, [this] {
        for (const auto& s : std::vector(core.sessions)) s->close_after_flush();
      });
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      while (core.counters.clients.load(std::memory_order_relaxed) > 0 &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
    core.io.stop();
    if (thread.joinable()) thread.join();
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  detail::Core core;
  std::filesystem::path file;
  std::thread thread;
};

ConsoleServer::ConsoleServer(const ConsoleSpec& options, ConsoleFeed feed,
                             const std::filesystem::path& runtime_dir)
    : impl_(std::make_unique<Impl>(options, std::move(feed), runtime_dir)) {}

ConsoleServer::~ConsoleServer() = default;

std::string ConsoleServer::url() const {
  const std::string& a = impl_->core.options.address;
  return fmt::format("http://{}:{}/", a.find(':') != std::string::npos ? "[" + a + "]" : a,
                     impl_->core.port);
}

const std::string& ConsoleServer::token() const noexcept { return impl_->core.token; }
const std::filesystem::path& ConsoleServer::token_file() const noexcept { return impl_->file; }
ConsoleTap& ConsoleServer::tap() noexcept { return impl_->core.tap; }

void ConsoleServer::start(const rt::Executive& executive, std::function<void()> stop) {
  detail::Core& c = impl_->core;
  c.executive = &executive;
  c.stop = std::move(stop);
  c.started_at = detail::Clock::now();
  c.state = "running";
  c.accept_next();
  c.start_pump();
  impl_->thread = std::thread([&c] {
    pthread_setname_np(pthread_self(), "hilsim-console");
    c.io.run();
  });
}

void ConsoleServer::command_applied(std::uint64_t id, std::int64_t tick, bool ok,
                                    std::string line) {
  boost::asio::post(impl_->core.io, [this, id, tick, ok, line = std::move(line)] {
    impl_->core.command_applied(id, tick, ok, line);
  });
}

void ConsoleServer::command_result(std::uint64_t id, std::string type, nlohmann::json body) {
  boost::asio::post(impl_->core.io, [this, id, type = std::move(type), body = std::move(body)] {
    impl_->core.command_result(id, type, body);
  });
}

void ConsoleServer::ended(const std::string& ending, std::int64_t ticks) {
  boost::asio::post(impl_->core.io,
                    [this, ending, ticks] { impl_->core.run_ended(ending, ticks); });
}

void ConsoleServer::set_realtime(bool realtime, std::string summary) {
  boost::asio::post(impl_->core.io, [this, realtime, summary = std::move(summary)]() mutable {
    impl_->core.realtime = {.on = realtime, .summary = std::move(summary)};
  });
}

boost::asio::io_context& ConsoleServer::context() noexcept { return impl_->core.io; }

ServerCounters ConsoleServer::counters() const {
  const detail::SharedCounters& c = impl_->core.counters;
  return {.clients = c.clients.load(std::memory_order_relaxed),
          .refused = c.refused.load(std::memory_order_relaxed),
          .bad_messages = c.bad_messages.load(std::memory_order_relaxed),
          .dropped_frames = c.dropped_frames.load(std::memory_order_relaxed),
          .closed_stalled = c.closed_stalled.load(std::memory_order_relaxed),
          .tap_dropped = impl_->core.tap.dropped()};
}

}  // namespace hil::io::console
