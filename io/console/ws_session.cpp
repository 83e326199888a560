// WebSocket sessions of the console (server_core.hpp): handshake, one read loop, two queues and
// one write in flight.
#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/websocket.hpp>

#include "io/console/server_core.hpp"

namespace hil::io::console::detail {

WsSession::WsSession(Core& core, beast::tcp_stream&& stream, Protocol speaking, Role as,
                     std::string from)
    : protocol(speaking), role(as), peer(std::move(from)), core_(core), ws_(std::move(stream)) {}

void WsSession::accept(const Request& request, const std::string& subprotocol) {
  beast::get_lowest_layer(ws_).expires_never();
  websocket::stream_base::timeout timeout{};
  timeout.handshake_timeout = kIdleTimeout;
  timeout.idle_timeout = kIdleTimeout;  // pings at half of it; a peer that never answers goes
  timeout.keep_alive_pings = true;
  ws_.set_option(timeout);
  ws_.set_option(websocket::stream_base::decorator([subprotocol](websocket::response_type& res) {
    res.set(http::field::server, "hilsim");
    res.set(http::field::sec_websocket_protocol, subprotocol);
  }));
  ws_.read_message_max(kMessageLimit);
  ws_.async_accept(request, [self = shared_from_this()](beast::error_code ec) {
    if (ec) {
      self->core_.counters.refused.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    self->open_ = true;
    self->core_.session_opened(self);
    if (self->protocol == Protocol::console) {
      self->core_.welcome(*self);
    } else {
      self->core_.foxglove_welcome(*self);
    }
    self->read_next();
  });
}

void WsSession::read_next() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) {
      if (ec == websocket::error::message_too_big) {
        self->core_.counters.bad_messages.fetch_add(1, std::memory_order_relaxed);
      }
      if (ec == beast::error::timeout) {  // no pong within kIdleTimeout: it stopped reading
        self->core_.counters.closed_stalled.fetch_add(1, std::memory_order_relaxed);
      }
      self->finish();
      return;
    }
    const auto data = self->buffer_.data();
    const std::string_view text(static_cast<const char*>(data.data()), data.size());
    if (!self->ws_.got_text()) {
      self->core_.counters.bad_messages.fetch_add(1, std::memory_order_relaxed);
    } else if (self->protocol == Protocol::console) {
      self->core_.on_console_message(*self, text);
    } else {
      self->core_.on_foxglove_message(*self, text);
    }
    self->buffer_.consume(self->buffer_.size());
    if (self->open_) self->read_next();
  });
}

void WsSession::send_control(std::string text) {
  if (!open_ || closing_) return;
  control_bytes_ += text.size();
  control_.push_back({std::make_shared<const std::string>(std::move(text)), false});
  if (control_bytes_ > kControlQueueLimit) {  // a client this far behind cannot follow
    close(websocket::close_code::policy_error);
    return;
  }
  write_next();
}

void WsSession::send_data(std::shared_ptr<const std::string> bytes, bool binary) {
  if (!open_ || closing_) return;
  data_bytes_ += bytes->size();
  data_.push_back({std::move(bytes), binary});
  std::uint64_t dropped = 0;
  while (data_bytes_ > data_cap && data_.size() > 1) {  // oldest first
    data_bytes_ -= data_.front().bytes->size();
    data_.pop_front();
    ++dropped;
  }
  note_dropped(dropped);
  write_next();
}

bool WsSession::send_capture(std::shared_ptr<const std::string> bytes, bool binary) {
  if (!open_ || closing_) return false;
  if (binary && capture_bytes_ + bytes->size() > kCaptureQueueLimit) return false;
  capture_bytes_ += bytes->size();
  capture_.push_back({std::move(bytes), binary});
  write_next();
  return true;
}

void WsSession::note_dropped(std::uint64_t frames) {
  if (frames == 0) return;
  dropped_frames += frames;
  core_.counters.dropped_frames.fetch_add(frames, std::memory_order_relaxed);
  const Clock::time_point now = Clock::now();
  if (!lagging_since_) lagging_since_ = now;
  if (now - lag_sent_ > std::chrono::seconds(1)) {  // throttled
    lag_sent_ = now;
    send_control(
        Json{{"type", "lag"}, {"dropped_frames", dropped_frames}, {"queued_bytes", data_bytes_}}
            .dump());
  }
}

void WsSession::write_next() {
  if (writing_ || !open_) return;
  std::deque<Out>& queue = !control_.empty() ? control_ : (!capture_.empty() ? capture_ : data_);
  if (queue.empty()) {
    lagging_since_.reset();
    if (closing_) {  // all sent (close_after_flush): a close frame, then the connection goes
      writing_ = true;
      ws_.async_close(websocket::close_reason(websocket::close_code::going_away),
                      [self = shared_from_this()](beast::error_code) {
                        self->writing_ = false;
                        self->finish();
                      });
    }
    return;
  }
  Out out = std::move(queue.front());
  queue.pop_front();
  (&queue == &control_ ? control_bytes_ : (&queue == &capture_ ? capture_bytes_ : data_bytes_)) -=
      out.bytes->size();
  writing_ = true;
  write_started_ = Clock::now();
  ws_.binary(out.binary);
  ws_.async_write(asio::buffer(*out.bytes),
                  [self = shared_from_this(), keep = out.bytes](beast::error_code ec, std::size_t) {
                    self->writing_ = false;
                    if (ec) {
                      self->finish();
                      return;
                    }
                    self->write_next();
                  });
}

void WsSession::close(websocket::close_code code) {
  if (!open_ || closing_) return;
  closing_ = true;
  control_.clear();
  capture_.clear();
  data_.clear();
  control_bytes_ = capture_bytes_ = data_bytes_ = 0;
  if (writing_) {  // a close frame cannot overtake the write in flight: cut the connection
    finish();
    return;
  }
  writing_ = true;
  ws_.async_close(websocket::close_reason(code), [self = shared_from_this()](beast::error_code) {
    self->writing_ = false;
    self->finish();
  });
}

void WsSession::close_after_flush() {
  if (!open_ || closing_) return;
  closing_ = true;  // nothing more is queued; write_next() finishes once the queues are empty
  if (!writing_) write_next();
}

bool WsSession::close_if_stalled(Clock::time_point now) {
  if (!open_) return false;
  const bool stalled = writing_ && now - write_started_ > kStallTimeout;
  const bool lagging = lagging_since_ && now - *lagging_since_ > kStallTimeout;
  if (!stalled && !lagging) return false;
  core_.counters.closed_stalled.fetch_add(1, std::memory_order_relaxed);
  close(websocket::close_code::try_again_later);
  return true;
}

void WsSession::finish() {
  if (!open_) return;
  open_ = false;
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
  beast::get_lowest_layer(ws_).socket().close(ignored);
  core_.session_closed(this);
}

}  // namespace hil::io::console::detail
