-- wrk script for the mixed load run (docs/online.md, "Load"): reads requests.tsv from
-- prepare.py. Run it with one connection per thread (`wrk -tN -cN ... -- N`): a thread's
-- requests and responses then alternate, so each response is timed against its own request
-- and the latencies are kept per kind of request (wrk itself times only all requests together).
-- One connection in every WRITE_EVERY is a writer: it sends its share of the signed writes once
-- each (a nonce is single use), then reads. The others read: 70 % board tops, 15 % a player's
-- place, 15 % browsing and search. Writers are connections of their own, as players who
-- submit are not the ones reading boards: a reader never waits behind a slow write on its own
-- connection. At the end it prints, per kind, how many were sent, their rate and their
-- p50/p99/max latency, and every status answered.
--
-- Paced (`-- N READS WRITES`: READS requests per second over the reading connections, WRITES
-- over the writers): each connection sends at a fixed interval from a random phase, and a
-- response is timed from when its request was due, not from when it went out (as wrk2 does), so
-- a server that falls behind
-- shows its queue in the latencies instead of slowing the clients down. Unpaced (RATE left
-- out or 0), every connection sends its next request as soon as the last is answered: that
-- measures the most the server can answer, and there the latency is mostly the queue of 200
-- clients waiting on each other (Little's law: 200 / 4,000 per s is 50 ms on average).
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } tether_timespec;
int clock_gettime(int clock_id, tether_timespec *now);
]]
local CLOCK_MONOTONIC = 1
local WRITE_EVERY = 10
-- Latencies are counted in buckets this wide, in one flat table per thread keyed
-- "kind:bucket" (wrk 4.1 crashes copying nested tables out of a thread in done()).
local BUCKET_US = 50
local KINDS = { "board", "place", "browse", "valid", "faster", "badsig" }
local threads = {}
local counter = 0

function setup(thread)
   thread:set("id", counter)
   counter = counter + 1
   table.insert(threads, thread)
end

local timespec = ffi.new("tether_timespec")
local function now_us()
   ffi.C.clock_gettime(CLOCK_MONOTONIC, timespec)
   return tonumber(timespec.tv_sec) * 1e6 + tonumber(timespec.tv_nsec) / 1e3
end

function init(args)
   local thread_count = tonumber(args[1])
   assert(thread_count, "pass the thread count after --: wrk -tN -cN ... -- N")
   reads = { board = {}, place = {}, browse = {} }
   writes = {}
   sent = {}
   latency = {}
   for _, kind in ipairs(KINDS) do
      sent[kind] = 0
   end
   statuses = {}
   local writer_count = math.ceil(thread_count / WRITE_EVERY)
   local is_writer = id % WRITE_EVERY == 0
   local n = 0
   for line in io.lines("requests.tsv") do
      local kind, method, path, body = line:match("^(%w+)\t(%w+)\t([^\t]*)\t(.*)$")
      if reads[kind] then
         table.insert(reads[kind], wrk.format(method, path))
      else
         n = n + 1
         -- Each writer sends every writer_count-th write.
         if is_writer and n % writer_count == id / WRITE_EVERY then
            table.insert(writes, { kind = kind, request = wrk.format(method, path,
               { ["Content-Type"] = "application/json" }, body) })
         end
      end
   end
   next_write = 1
   in_flight = nil
   math.randomseed(id + 1)
   local reads_per_s = tonumber(args[2] or "0")
   local writes_per_s = tonumber(args[3] or "0")
   local rate_per_s = is_writer and writes_per_s or reads_per_s
   local connections = is_writer and writer_count or thread_count - writer_count
   interval_us = rate_per_s > 0 and 1e6 * connections / rate_per_s or 0
   next_due_us = nil
end

-- Milliseconds to wait before the next request (wrk calls this after each response).
function delay()
   if interval_us == 0 or next_due_us == nil then
      return 0
   end
   -- wrk's timers count whole milliseconds: round up so a request never goes out early.
   return math.max(0, math.ceil((next_due_us - now_us()) / 1000))
end

local function pick(list)
   return list[math.random(#list)]
end

-- When this request was due: now, or in a paced run the connection's next slot (the first
-- one, sent on connecting, is due now and sets a random phase for the rest).
local function due_us()
   local now = now_us()
   if interval_us == 0 then
      return now
   end
   if next_due_us == nil then
      next_due_us = now + interval_us * math.random()
      return now
   end
   local due = next_due_us
   next_due_us = next_due_us + interval_us
   return due
end

local function send(kind, request)
   sent[kind] = sent[kind] + 1
   in_flight = { kind = kind, started_us = due_us() }
   return request
end

function request()
   if next_write <= #writes then
      local write = writes[next_write]
      next_write = next_write + 1
      return send(write.kind, write.request)
   end
   local roll = math.random(100)
   local kind = roll <= 70 and "board" or (roll <= 85 and "place" or "browse")
   return send(kind, pick(reads[kind]))
end

function response(status, headers, body)
   statuses[status] = (statuses[status] or 0) + 1
   if in_flight then
      local bucket = math.floor(math.max(0, now_us() - in_flight.started_us) / BUCKET_US)
      local key = in_flight.kind .. ":" .. bucket
      latency[key] = (latency[key] or 0) + 1
      in_flight = nil
   end
end

-- The latency (ms) below which `share` of the counted responses fall, from merged buckets.
local function percentile(counts, total, share)
   local buckets = {}
   for bucket in pairs(counts) do
      table.insert(buckets, bucket)
   end
   table.sort(buckets)
   local wanted, seen = math.ceil(total * share), 0
   for _, bucket in ipairs(buckets) do
      seen = seen + counts[bucket]
      if seen >= wanted then
         return (bucket + 1) * BUCKET_US / 1000
      end
   end
   return 0
end


function done(summary, latency_all, requests)
   local totals, codes, merged, timed = {}, {}, {}, {}
   for _, kind in ipairs(KINDS) do
      totals[kind], merged[kind], timed[kind] = 0, {}, 0
   end
   for _, thread in ipairs(threads) do
      for kind, count in pairs(thread:get("sent")) do
         totals[kind] = totals[kind] + count
      end
      for key, count in pairs(thread:get("latency")) do
         local kind, bucket = key:match("^(%w+):(%d+)$")
         bucket = tonumber(bucket)
         merged[kind][bucket] = (merged[kind][bucket] or 0) + count
         timed[kind] = timed[kind] + count
      end
      for status, count in pairs(thread:get("statuses")) do
         codes[status] = (codes[status] or 0) + count
      end
   end
   local seconds = summary.duration / 1e6
   io.write("kind       sent     per s   p50 ms   p99 ms   max ms\n")
   for _, kind in ipairs(KINDS) do
      local max = 0
      for bucket in pairs(merged[kind]) do
         max = math.max(max, (bucket + 1) * BUCKET_US / 1000)
      end
      io.write(string.format("%-7s %7d %9.0f %8.2f %8.2f %8.2f\n", kind, totals[kind],
         totals[kind] / seconds, percentile(merged[kind], timed[kind], 0.50),
         percentile(merged[kind], timed[kind], 0.99), max))
   end
   for status, count in pairs(codes) do
      io.write(string.format("status %d: %d\n", status, count))
   end
   io.write(string.format(
      "p50 %.2f ms, p99 %.2f ms, max %.2f ms over all requests (wrk's, from when each went out)\n",
      latency_all:percentile(50) / 1000, latency_all:percentile(99) / 1000,
      latency_all.max / 1000))
end
