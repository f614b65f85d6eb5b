-- POST /oauth/refresh_access_token, chained: every successful refresh rotates the access
-- token (the old one stops working), so each request signs a token that an earlier answer
-- handed out. All sessions share one refresh secret (the client chooses it at sign-in), so
-- any answer's new token can be signed by any connection: each thread keeps a queue of live
-- tokens, request() takes one and signs it with the current UTC date, response() puts the
-- new one back. A refused refresh loses its token; the RESULT line counts them.
package.path = os.getenv("BENCH_LUA_DIR") .. "/?.lua;" .. package.path
local common = require("common")
local bit = require("bit")
local band, bor, bxor, bnot, rshift, rol, tobit = bit.band, bit.bor, bit.bxor, bit.bnot, bit.rshift, bit.rol, bit.tobit

-- SHA-1 (FIPS 180-4) on LuaJIT's 32-bit bit operations.
local function sha1(message)
  local h0, h1, h2, h3, h4 = tobit(0x67452301), tobit(0xEFCDAB89), tobit(0x98BADCFE), tobit(0x10325476), tobit(0xC3D2E1F0)
  local length = #message * 8
  message = message .. "\128" .. string.rep("\0", (56 - (#message + 1) % 64) % 64)
    .. "\0\0\0\0" .. string.char(band(rshift(length, 24), 255), band(rshift(length, 16), 255), band(rshift(length, 8), 255), band(length, 255))
  local w = {}
  for chunk = 1, #message, 64 do
    for i = 0, 15 do
      local a, b, c, d = string.byte(message, chunk + i * 4, chunk + i * 4 + 3)
      w[i] = tobit(a * 16777216 + b * 65536 + c * 256 + d)
    end
    for i = 16, 79 do w[i] = rol(bxor(w[i - 3], w[i - 8], w[i - 14], w[i - 16]), 1) end
    local a, b, c, d, e = h0, h1, h2, h3, h4
    for i = 0, 79 do
      local f, k
      if i < 20 then f, k = bor(band(b, c), band(bnot(b), d)), 0x5A827999
      elseif i < 40 then f, k = bxor(b, c, d), 0x6ED9EBA1
      elseif i < 60 then f, k = bor(band(b, c), band(b, d), band(c, d)), 0x8F1BBCDC
      else f, k = bxor(b, c, d), 0xCA62C1D6 end
      local temp = tobit(rol(a, 5) + f + e + k + w[i])
      e, d, c, b, a = d, c, rol(b, 30), a, temp
    end
    h0, h1, h2, h3, h4 = tobit(h0 + a), tobit(h1 + b), tobit(h2 + c), tobit(h3 + d), tobit(h4 + e)
  end
  local out = {}
  for _, h in ipairs({ h0, h1, h2, h3, h4 }) do
    out[#out + 1] = string.char(band(rshift(h, 24), 255), band(rshift(h, 16), 255), band(rshift(h, 8), 255), band(h, 255))
  end
  return table.concat(out)
end

local function hmac_sha1(key, message)
  if #key > 64 then key = sha1(key) end
  key = key .. string.rep("\0", 64 - #key)
  local inner, outer = {}, {}
  for i = 1, 64 do
    local byte = string.byte(key, i)
    inner[i] = string.char(bxor(byte, 0x36))
    outer[i] = string.char(bxor(byte, 0x5C))
  end
  return sha1(table.concat(outer) .. sha1(table.concat(inner) .. message))
end

local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local function base64(data)
  local out = {}
  for i = 1, #data, 3 do
    local a, b, c = string.byte(data, i, i + 2)
    local n = a * 65536 + (b or 0) * 256 + (c or 0)
    local chars = {}
    for j = 3, 0, -1 do
      local index = band(rshift(n, j * 6), 63) + 1
      chars[#chars + 1] = string.sub(alphabet, index, index)
    end
    if not b then chars[3], chars[4] = "=", "="
    elseif not c then chars[4] = "=" end
    out[#out + 1] = table.concat(chars)
  end
  return table.concat(out)
end

local function encode(text)
  return (string.gsub(text, "[^%w%-%._~]", function(ch) return string.format("%%%02X", string.byte(ch)) end))
end

-- HMAC-SHA1 and Base64 from the libcrypto wrk is linked with, through LuaJIT's FFI, when they
-- resolve: with the Lua SHA-1 above, wrk spent 66-84 µs of CPU per refresh on the cores the
-- server shares; with libcrypto's HMAC, 44-63 µs (docs/PERFORMANCE.md). The Lua ones stay as
-- the fallback (and check the C ones below).
local native_signature = nil
do
  local ok, ffi = pcall(require, "ffi")
  if ok then
    pcall(ffi.cdef, [[
      const void *EVP_sha1(void);
      unsigned char *HMAC(const void *evp_md, const void *key, int key_len, const unsigned char *d, size_t n,
                          unsigned char *md, unsigned int *md_len);
      int EVP_EncodeBlock(unsigned char *t, const unsigned char *f, int n);
    ]])
    local found, crypto = pcall(function() local _ = ffi.C.HMAC; local _ = ffi.C.EVP_EncodeBlock; return ffi.C end)
    if not found then found, crypto = pcall(ffi.load, "crypto") end
    if found then
      local digest, length = ffi.new("unsigned char[20]"), ffi.new("unsigned int[1]")
      local encoded = ffi.new("unsigned char[32]")
      local sha1_md = crypto.EVP_sha1()
      native_signature = function(key, message)
        crypto.HMAC(sha1_md, key, #key, message, #message, digest, length)
        return ffi.string(encoded, crypto.EVP_EncodeBlock(encoded, digest, length[0]))
      end
      if native_signature("key", "message") ~= base64(hmac_sha1("key", "message")) then native_signature = nil end
    end
  end
end

if not native_signature and not announced_lua_hmac then
  announced_lua_hmac = true
  io.stderr:write("refresh.lua: libcrypto's HMAC is not reachable through LuaJIT's FFI; signing in Lua (slower client)\n")
end

local function signature(token, date, secret)
  local message = "refresh_access_token\n" .. date .. "\n" .. token .. "\n"
  if native_signature then return native_signature(secret, message) end
  return base64(hmac_sha1(secret, message))
end

-- Base64's three characters that are not URL-safe, percent-encoded by table (a signature is
-- the only encoded value that changes with every request).
local escaped = { ["+"] = "%2B", ["/"] = "%2F", ["="] = "%3D" }
local function encode_signature(text) return (string.gsub(text, "[+/=]", escaped)) end

-- The date and its encoded form change once a second: kept between requests (os.time is a
-- cheaper call than formatting the date each time).
local current_second, current_date, encoded_date = nil, nil, nil
local function now_date()
  local second = os.time()
  if second ~= current_second then
    current_second = second
    current_date = os.date("!%Y-%m-%d %H:%M:%S", second)
    encoded_date = encode(current_date)
  end
  return current_date, encoded_date
end

-- The first vector of Tests/JumpCaptureTests/Fixtures/refresh-signature-vectors.json.
assert(signature("abc123accesstoken", "2024-01-15 10:30:00", "0123456789abcdef0123456789abcdef01234567") == "7JDTJH4Q/Lz0l9w+4SbImWt77NM=",
  "the Lua HMAC-SHA1 does not match the reference vector")

local secret = os.getenv("BENCH_REFRESH_SECRET")
local client = os.getenv("BENCH_CLIENT_ID")
local headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }

-- Main state: deal the tokens of the file out to the threads.
local all_tokens = {}
for line in io.lines(os.getenv("BENCH_TOKENS_FILE")) do
  if #line > 0 then all_tokens[#all_tokens + 1] = line end
end
local dealt = 0

function setup(thread)
  common.setup(thread)
  dealt = dealt + 1
  thread:set("deal_index", dealt)
end

function init(args)
  common.init()
  queue = {}
  local threads = tonumber(os.getenv("BENCH_THREADS"))
  for i = deal_index, #all_tokens, threads do queue[#queue + 1] = all_tokens[i] end
  starved = 0
end

request = function()
  local token = table.remove(queue)
  if token == nil then
    starved = starved + 1
    token = "starved"
  end
  local date, date_parameter = now_date()
  local body = "client_id=" .. client .. "&locale=en-US&access_token=" .. token .. "&date=" .. date_parameter
    .. "&signature=" .. encode_signature(signature(token, date, secret))
  return wrk.format("POST", "/oauth/refresh_access_token", headers, body)
end

function response(status, headers, body)
  if common.count(status, body) then
    local token = string.match(body, '"access_token":"(%x+)"')
    if token then queue[#queue + 1] = token end
  end
end

function done(summary, latency, requests) common.done("refresh", summary, latency) end
