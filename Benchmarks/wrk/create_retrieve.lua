-- P4's load on the sandbox: a Cash App Pay create (POST), then a retrieve (GET) of an id a
-- create returned, alternating. wrk gives each thread its own Lua state, so the counter and the
-- last id below are per thread; setup() hands each thread a distinct prefix so idempotency keys
-- never repeat across threads (or across runs: the prefix carries the run's start time).

local threads = 0
-- BENCH_KEY_PREFIX: several wrk at once (P6's two instances) each keep keys of their own.
local run = (os.getenv("BENCH_KEY_PREFIX") or "") .. tostring(os.time())

function setup(thread)
  threads = threads + 1
  thread:set("prefix", "bench-" .. run .. "-t" .. threads .. "-")
end

local counter = 0
local last_id = nil
local retrieve_next = false

local create_headers = {
  ["Authorization"] = "Client CAS-CI_TERMINALCHECKOUT",
  ["Content-Type"] = "application/json",
  ["Accept"] = "application/json",
}
local retrieve_headers = {
  ["Authorization"] = "Client CAS-CI_TERMINALCHECKOUT",
  ["Accept"] = "application/json",
}

local function create()
  counter = counter + 1
  local key = prefix .. counter
  local body = '{"idempotency_key":"' .. key .. '","request":{"actions":[{"amount":4505,'
    .. '"currency":"USD","scope_id":"BRAND_terminalcheckout","type":"ONE_TIME_PAYMENT"}],'
    .. '"channel":"ONLINE","redirect_url":"terminalcheckout://checkout/return",'
    .. '"reference_id":"' .. key .. '"}}'
  return wrk.format("POST", "/customer-request/v1/requests", create_headers, body)
end

function request()
  -- Until some create has answered there is no id to retrieve, so create.
  if retrieve_next and last_id then
    retrieve_next = false
    return wrk.format("GET", "/customer-request/v1/requests/" .. last_id, retrieve_headers)
  end
  retrieve_next = true
  return create()
end

function response(status, headers, body)
  if status == 201 or status == 200 then
    local id = body:match('"id"%s*:%s*"(GRR_[^"]+)"')
    if id then last_id = id end
  end
end
