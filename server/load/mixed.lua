-- wrk script for the mixed load run (docs/online.md, "Load"): reads requests.tsv from
-- prepare.py. Each thread sends the signed writes of its share once each (a nonce is single
-- use), one write in every WRITE_EVERY requests while they last, and otherwise reads: 70 %
-- board tops, 15 % a player's place, 15 % browsing and search. At the end it prints how many
-- of each kind were sent and every status answered.
local WRITE_EVERY = 10
local threads = {}
local counter = 0

function setup(thread)
   thread:set("id", counter)
   counter = counter + 1
   table.insert(threads, thread)
end

function init(args)
   reads = { board = {}, place = {}, browse = {} }
   writes = {}
   sent = { board = 0, place = 0, browse = 0, valid = 0, faster = 0, badsig = 0 }
   statuses = {}
   local n = 0
   for line in io.lines("requests.tsv") do
      local kind, method, path, body = line:match("^(%w+)\t(%w+)\t([^\t]*)\t(.*)$")
      if reads[kind] then
         table.insert(reads[kind], wrk.format(method, path))
      else
         n = n + 1
         -- Two wrk threads: each sends every other write.
         if n % 2 == id then
            table.insert(writes, { kind = kind, request = wrk.format(method, path,
               { ["Content-Type"] = "application/json" }, body) })
         end
      end
   end
   issued = 0
   next_write = 1
   math.randomseed(id + 1)
end

local function pick(list)
   return list[math.random(#list)]
end

function request()
   issued = issued + 1
   if issued % WRITE_EVERY == 0 and next_write <= #writes then
      local write = writes[next_write]
      next_write = next_write + 1
      sent[write.kind] = sent[write.kind] + 1
      return write.request
   end
   local roll = math.random(100)
   local kind = roll <= 70 and "board" or (roll <= 85 and "place" or "browse")
   sent[kind] = sent[kind] + 1
   return pick(reads[kind])
end

function response(status, headers, body)
   statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
   local totals, codes = {}, {}
   for _, thread in ipairs(threads) do
      for kind, count in pairs(thread:get("sent")) do
         totals[kind] = (totals[kind] or 0) + count
      end
      for status, count in pairs(thread:get("statuses")) do
         codes[status] = (codes[status] or 0) + count
      end
   end
   local seconds = summary.duration / 1e6
   for kind, count in pairs(totals) do
      io.write(string.format("sent %-7s %8d  (%.0f/s)\n", kind, count, count / seconds))
   end
   for status, count in pairs(codes) do
      io.write(string.format("status %d: %d\n", status, count))
   end
   io.write(string.format("p50 %.2f ms, p99 %.2f ms, max %.2f ms over all requests\n",
      latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
