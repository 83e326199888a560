// Who may do what on the console (io/console/console_auth.hpp).
#include "io/console/console_auth.hpp"

#include <gtest/gtest.h>

#include <boost/beast/http/fields.hpp>
#include <set>

namespace hil::io::console {
namespace {

namespace http = boost::beast::http;

TEST(ConsoleAuth, TokensAre128RandomBits) {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    const std::string t = make_token();
    EXPECT_EQ(t.size(), 32U);
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos);
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 50U);
}

TEST(ConsoleAuth, FindsTheTokenWhereverARequestPresentsIt) {
  http::fields bearer;
  bearer.set(http::field::authorization, "Bearer abc");
  EXPECT_EQ(presented_token(bearer, "/api/stop"), "abc");
  http::fields cookie;
  cookie.set(http::field::cookie, "theme=dark; hilsim_token=def; x=1");
  EXPECT_EQ(presented_token(cookie, "/"), "def");
  EXPECT_EQ(presented_token(http::fields{}, "/ws?x=1&token=g%2Fh"), "g/h");
  http::fields sub;
  sub.set(http::field::sec_websocket_protocol, "hilsim.console.v1, hilsim.token.xyz");
  EXPECT_EQ(presented_token(sub, "/ws"), "xyz");
  EXPECT_FALSE(presented_token(http::fields{}, "/api/info"));
}

TEST(ConsoleAuth, RolesFollowTokenAndLoopback) {
  EXPECT_EQ(role_of(std::nullopt, "t0k", true, true), Role::viewer);
  EXPECT_EQ(role_of(std::nullopt, "t0k", false, true), Role::none);  // cannot happen, still
  EXPECT_EQ(role_of(std::nullopt, "t0k", true, false), Role::none);  // non-loopback bind
  EXPECT_EQ(role_of(std::string("t0k"), "t0k", false, false), Role::operator_);
  EXPECT_EQ(role_of(std::string("t0x"), "t0k", true, true), Role::none);  // a wrong token
  EXPECT_FALSE(token_matches("", ""));
}

TEST(ConsoleAuth, OriginMustBeTheConsolesOwnAndHostALoopbackName) {
  http::fields ok;
  ok.set(http::field::host, "127.0.0.1:8642");
  ok.set(http::field::origin, "http://127.0.0.1:8642");
  EXPECT_EQ(origin_problem(ok, true, 8642), "");
  http::fields local;
  local.set(http::field::host, "localhost:8642");
  EXPECT_EQ(origin_problem(local, true, 8642), "");  // no Origin: not a browser page
  http::fields evil = ok;
  evil.set(http::field::origin, "http://evil.example");
  EXPECT_NE(origin_problem(evil, true, 8642).find("Origin"), std::string::npos);
  http::fields rebind;
  rebind.set(http::field::host, "evil.example:8642");
  rebind.set(http::field::origin, "http://evil.example:8642");
  EXPECT_NE(origin_problem(rebind, true, 8642).find("Host"), std::string::npos);
  EXPECT_EQ(origin_problem(rebind, false, 8642), "");  // non-loopback: the token guards it
  http::fields port;
  port.set(http::field::host, "127.0.0.1:9999");
  EXPECT_NE(origin_problem(port, true, 8642), "");
}

TEST(ConsoleAuth, QueryParametersAndPaths) {
  EXPECT_EQ(query_parameter("/?a=1&token=x+y%21", "token"), "x y!");
  EXPECT_EQ(query_parameter("/?tokenx=1", "token"), std::nullopt);
  EXPECT_EQ(query_parameter("/?token", "token"), "");
  EXPECT_EQ(query_parameter("/?token=%zz%4", "token"), "%zz%4");
  EXPECT_EQ(target_path("/api/info?x=1"), "/api/info");
}

}  // namespace
}  // namespace hil::io::console
