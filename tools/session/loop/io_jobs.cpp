#include "tools/session/loop/io_jobs.hpp"

#include <pthread.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <future>
#include <list>
#include <optional>
#include <thread>

namespace hil::session {

namespace asio = boost::asio;

struct IoJobs::Impl {
  struct Job {
    std::chrono::milliseconds period;
    std::function<void()> run;
    asio::steady_timer timer;
  };

  explicit Impl(asio::io_context* shared) : context(shared != nullptr ? *shared : own.emplace()) {
    if (shared == nullptr) {
      guard.emplace(own->get_executor());
      thread = std::thread([this] {
        pthread_setname_np(pthread_self(), "hilsim-io");
        own->run();
      });
    }
  }

  /// I/O thread: the job's next round one period on.
  void schedule(Job& job) {
    job.timer.expires_after(job.period);
    job.timer.async_wait([this, &job](const boost::system::error_code& ec) {
      if (ec || stopped) return;
      job.run();
      schedule(job);
    });
  }

  std::optional<asio::io_context> own;  // before `context`: it may refer to it
  asio::io_context& context;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> guard;
  std::list<Job> jobs;   // stable addresses: the timers' handlers refer to them
  bool stopped = false;  // I/O thread (and the owner once it has stopped)
  std::thread thread;
};

IoJobs::IoJobs(asio::io_context* shared) : impl_(std::make_unique<Impl>(shared)) {}

IoJobs::~IoJobs() { stop(); }

void IoJobs::every(std::chrono::milliseconds period, std::function<void()> job) {
  Impl& i = *impl_;
  // The list and the timers belong to the I/O thread: added there
  asio::post(i.context, [&i, period, job = std::move(job)]() mutable {
    if (i.stopped) return;
    Impl::Job& j = i.jobs.emplace_back(
        Impl::Job{.period = period, .run = std::move(job), .timer = asio::steady_timer(i.context)});
    i.schedule(j);
  });
}

void IoJobs::stop() {
  Impl& i = *impl_;
  if (i.stopped) return;
  if (i.context.stopped()) {  // nobody runs it (any more): no job can run
    i.stopped = true;
  } else {
    std::promise<void> done;
    asio::post(i.context, [&i, &done] {
      i.stopped = true;
      for (Impl::Job& j : i.jobs) j.timer.cancel();
      done.set_value();
    });
    done.get_future().wait();  // after the job running now, if any: the thread is serial
  }
  if (i.thread.joinable()) {
    i.guard.reset();
    i.own->stop();
    i.thread.join();
  }
}

}  // namespace hil::session
