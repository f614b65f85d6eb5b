-- POST /entity with a valid access token: the record read.
package.path = os.getenv("BENCH_LUA_DIR") .. "/?.lua;" .. package.path
local common = require("common")

local body = "client_id=" .. os.getenv("BENCH_CLIENT_ID") .. "&access_token=" .. os.getenv("BENCH_ACCESS_TOKEN")
local headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }

function setup(thread) common.setup(thread) end
function init(args) common.init() end
request = function() return wrk.format("POST", "/entity", headers, body) end
function response(status, headers, body) common.count(status, body) end
function done(summary, latency, requests) common.done("read", summary, latency) end
