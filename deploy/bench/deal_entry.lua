-- wrk script: each connection (one per thread) enters deals into its own matches, as a
-- table's phone does: its scorer's token, an Idempotency-Key and the number the deal
-- expects. args: tokens (comma-separated, one per thread), first match id, matches per
-- thread, deals per match, the number of the first deal to enter (default 1), and a file
-- holding the deal as JSON (default: totals of a Tressette deal).
-- One connection per thread, so requests go one after another; the count moves on in
-- response(), because wrk also calls request() once at start without sending it.
-- A client that has used all its matches stops: going on would re-enter stored deals
-- (409). done() prints the busiest client's count, so the bench can tell one stopped early.
count = 0 -- global: done() reads it from each thread
local clients = {}

function setup(thread)
  thread:set("tid", #clients)
  clients[#clients + 1] = thread
end

function init(args)
  local tokens = {}
  for t in string.gmatch(args[1], "[^,]+") do tokens[#tokens + 1] = t end
  token = tokens[tid % #tokens + 1]
  first = tonumber(args[2])
  per = tonumber(args[3])
  deals = tonumber(args[4])
  from = tonumber(args[5] or "1")
  local deal = '{"sides": {"A": {"thirds": 20, "tricks": 5}, '
    .. '"B": {"thirds": 12, "tricks": 5}}, "last_trick": "A"}'
  if args[6] then
    local file = assert(io.open(args[6]))
    deal = file:read("*a")
    file:close()
  end
  body = '{"deal": ' .. deal .. ', "number": %d}'
end

function request()
  local match = first + tid * per + math.floor(count / deals) % per
  local number = from + count % deals
  return wrk.format("POST", "/api/v1/matches/" .. match .. "/deals", {
    ["Authorization"] = "Token " .. token,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = "bench-" .. tid .. "-" .. first .. "-" .. count,
  }, string.format(body, number))
end

local shown = 0
function response(status, headers, body)
  count = count + 1
  if status >= 300 and shown < 3 then
    shown = shown + 1
    io.stderr:write("deal entry answered " .. status .. ": " .. body:sub(1, 300) .. "\n")
  end
  if count >= per * deals then wrk.thread:stop() end
end

function done(summary, latency, requests)
  local busiest = 0
  for _, thread in ipairs(clients) do busiest = math.max(busiest, thread:get("count")) end
  io.write("busiest client: " .. busiest .. " answers\n")
end
