-- wrk script: external agents negotiate over parley serve's API, each
-- negotiation a create and three moves (the responder counters, the
-- initiator counters, the responder accepts) over keep-alive connections.
-- scripts/api-bench.sh registers the agents "a<N>"/"b<N>" first; each wrk
-- thread uses its own PAIRS pairs (numbered from OFFSET + 1), one open
-- negotiation per pair (a pair's room holds one at a time). A step's answer
-- names the next step, so any of the thread's connections may send it.

local PAIRS = tonumber(os.getenv("PAIRS") or "64")
-- Where this wrk's pairs start (several wrk processes, each its own pairs).
local OFFSET = tonumber(os.getenv("OFFSET") or "0")
local threads = {}

function setup(thread)
  thread:set("index", #threads)
  table.insert(threads, thread)
end

local free = {}
local steps = {}
local sent = 0
counts = { created = 0, moves = 0, accepted = 0, failed = 0, idle = 0 }

function init(args)
  for k = 1, PAIRS do
    table.insert(free, OFFSET + index * PAIRS + k)
  end
end

local function json_headers()
  return { ["Content-Type"] = "application/json" }
end

local function move(step)
  sent = sent + 1
  local body
  if step.action == "accept" then
    body = string.format('{"message_id":"t%d-%d","from":"%s","action":"accept"}',
                         index, sent, step.from)
  else
    body = string.format(
      '{"message_id":"t%d-%d","from":"%s","action":"counter","proposal":{"amount":%d,"currency":"GBP"}}',
      index, sent, step.from, step.amount)
  end
  return wrk.format("POST", "/api/v1/negotiations/" .. step.id .. "/messages",
                    json_headers(), body)
end

function request()
  local step = table.remove(steps)
  if step then
    return move(step)
  end
  local pair = table.remove(free)
  if not pair then
    -- Every pair is busy (PAIRS below the thread's connections): counted,
    -- as it is not a negotiation request.
    counts.idle = counts.idle + 1
    return wrk.format("GET", "/healthz")
  end
  local body = string.format(
    '{"initiator":"a%d","responder":"b%d","proposal":{"amount":%d,"currency":"GBP"}}',
    pair, pair, 10000 + pair % 1000)
  return wrk.format("POST", "/api/v1/negotiations", json_headers(), body)
end

function response(status, headers, body)
  if status ~= 200 and status ~= 201 then
    counts.failed = counts.failed + 1
    return
  end
  local id = body:match('"id":"([^"]+)"')
  if not id then
    return -- /healthz
  end
  local initiator = body:match('"initiator":"([^"]+)"')
  local responder = body:match('"responder":"([^"]+)"')
  local _, rounds = body:gsub('"round":', "")
  local state = body:match('"status":"([^"]+)"')
  if state == "accepted" then
    counts.accepted = counts.accepted + 1
    table.insert(free, tonumber(initiator:sub(2)))
    return
  end
  if rounds == 1 then
    counts.created = counts.created + 1
    table.insert(steps, { id = id, from = responder, action = "counter", amount = 8500 })
  elseif rounds == 2 then
    counts.moves = counts.moves + 1
    table.insert(steps, { id = id, from = initiator, action = "counter", amount = 9250 })
  else
    counts.moves = counts.moves + 1
    table.insert(steps, { id = id, from = responder, action = "accept" })
  end
end

function done(summary, latency, requests)
  local totals = { created = 0, moves = 0, accepted = 0, failed = 0, idle = 0 }
  for _, thread in ipairs(threads) do
    local c = thread:get("counts")
    for k, v in pairs(c) do
      totals[k] = totals[k] + v
    end
  end
  io.write(string.format(
    "negotiations opened %d, accepted %d; moves %d; failed requests %d; idle requests %d; " ..
    "p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    totals.created, totals.accepted, totals.moves, totals.failed, totals.idle,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
