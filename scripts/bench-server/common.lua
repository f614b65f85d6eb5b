-- Shared by the wrk scripts of scripts/bench-server.sh: counts Capture answers
-- ({"stat":"ok"} versus anything else; Capture errors are HTTP 200) per thread, and prints one
-- RESULT line with the throughput of accepted requests and the latency percentiles.
local common = {}
local threads = {}

-- BENCH_PERIOD_MS (set by bench-server.sh from BENCH_RATE): a connection waits this long on
-- average between an answer and its next request, drawn uniformly from half to one and a half
-- of it so the connections do not send in step; the offered load is then about the rate, below
-- what the server could take. Unset: each connection sends again as soon as it is answered.
local period = tonumber(os.getenv("BENCH_PERIOD_MS") or "")
if period then
  function delay() return math.floor(period * (0.5 + math.random()) + 0.5) end
end

function common.setup(thread)
  table.insert(threads, thread)
  thread:set("thread_index", #threads)
end

function common.init()
  math.randomseed(thread_index)   -- the same waits in every run
  ok_count = 0
  failed_count = 0
  first_failure = ""
end

-- Call from response(): true when the answer is {"stat":"ok",...}.
function common.count(status, body)
  if status == 200 and string.find(body, '"stat":"ok"', 1, true) then
    ok_count = ok_count + 1
    return true
  end
  failed_count = failed_count + 1
  if first_failure == "" then first_failure = status .. " " .. string.sub(body, 1, 200) end
  return false
end

function common.done(name, summary, latency)
  local ok, failed, sample = 0, 0, ""
  for _, thread in ipairs(threads) do
    ok = ok + thread:get("ok_count")
    failed = failed + thread:get("failed_count")
    local first = thread:get("first_failure")
    if sample == "" and first ~= "" then sample = first end
  end
  local seconds = summary.duration / 1e6
  local socket = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT %s requests=%d ok=%d failed=%d socket_errors=%d seconds=%.1f ok_per_s=%.0f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f\n",
    name, summary.requests, ok, failed, socket, seconds, ok / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  if sample ~= "" then io.write("FIRST FAILURE " .. name .. ": " .. sample .. "\n") end
end

return common
