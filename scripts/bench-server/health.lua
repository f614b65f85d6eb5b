-- GET /health: the trivial route of the same binary (the baseline).
package.path = os.getenv("BENCH_LUA_DIR") .. "/?.lua;" .. package.path
local common = require("common")

function setup(thread) common.setup(thread) end
function init(args) common.init() end
request = function() return wrk.format("GET", "/health") end
function response(status, headers, body) common.count(status, body) end
function done(summary, latency, requests) common.done("health", summary, latency) end
