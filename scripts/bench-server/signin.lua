-- POST /oauth/auth_native_traditional with the right password: bcrypt verify + a new token.
package.path = os.getenv("BENCH_LUA_DIR") .. "/?.lua;" .. package.path
local common = require("common")

local body = os.getenv("BENCH_SIGNIN_BODY")
local headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }

function setup(thread) common.setup(thread) end
function init(args) common.init() end
request = function() return wrk.format("POST", "/oauth/auth_native_traditional", headers, body) end
function response(status, headers, body) common.count(status, body) end
function done(summary, latency, requests) common.done("signin", summary, latency) end
