import { LuaScript } from './client.js';

/**
 * The journal's writes, each one script so that it is atomic on the server: taking hold of a run (a lease:
 * SET NX PX), appending a batch under the lease (a fence: a holder whose lease expired and was taken by
 * another worker can no longer write), keeping the lease alive, and letting go.
 */

/**
 * begin: KEYS run, runs, lease, att. ARGV run_id, token, lease_ms, started_at, attempt JSON, then the
 * run's fields as name/value pairs. Replies 'ok', 'exists' (J006) or 'held'.
 */
export const BEGIN = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
if not redis.call('SET', KEYS[3], ARGV[2], 'NX', 'PX', ARGV[3]) then return 'held' end
local fields = {}
for i = 6, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('HSET', KEYS[4], '1', ARGV[5], '1:u', ARGV[4])
return 'ok'
`);

/**
 * resume: KEYS run, lease, att. ARGV token, lease_ms, holder JSON, attempt JSON, started_at.
 * Replies {'ok', attempt, seq}, {'missing'} (J001) or {'held'} (J003).
 */
export const RESUME = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
if not redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'held'} end
local a = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('HSET', KEYS[1], 'status', 'running', 'holder', ARGV[3])
redis.call('HDEL', KEYS[1], 'ended_at', 'report')
redis.call('HSET', KEYS[3], tostring(a), ARGV[4], a .. ':u', ARGV[5])
return {'ok', a}
`);

/**
 * A part of a run held by another worker (a chunk of a distributed foreach): KEYS run, lease. ARGV token,
 * lease_ms. Replies {'ok', attempt}, {'missing'} or {'held'}.
 */
export const HOLD_PART = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
if not redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'held'} end
return {'ok', tonumber(redis.call('HGET', KEYS[1], 'attempts'))}
`);

/**
 * append: KEYS run (its base name), lease. ARGV token, lease_ms, then operations, each a name and a fixed
 * number of arguments:
 *   x  call_key doubt json      an exchange (doubt '1': a write in doubt)   s  field json   a step event
 *   e  name json                an effect                                  c  attempt counters updated_at
 *   t  attempt updated_at       the attempt is alive                       h  the service honours keys
 *   ea attempt json updated_at  the attempt's end                          pc part json     a part's counters
 *   er status ended_at outputs error report failed_call                    the run's end (lets go of it)
 * Exchanges and step events get the run's next seq: '{"seq":N,' is put in front of their JSON object.
 */
export const APPEND = new LuaScript(`
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return redis.error_reply('LEASE_LOST') end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
local run = KEYS[1]
local i = 3
local function seqd(json)
  local seq = redis.call('HINCRBY', run, 'seq', 1)
  return seq, '{"seq":' .. seq .. ',' .. string.sub(json, 2)
end
while i <= #ARGV do
  local op = ARGV[i]
  if op == 'x' then
    local seq, json = seqd(ARGV[i + 3])
    redis.call('HSET', run .. ':ex', ARGV[i + 1], json)
    redis.call('ZADD', run .. ':exq', seq, ARGV[i + 1])
    if ARGV[i + 2] == '1' then redis.call('SADD', run .. ':wd', ARGV[i + 1])
    else redis.call('SREM', run .. ':wd', ARGV[i + 1]) end
    i = i + 4
  elseif op == 's' then
    local seq, json = seqd(ARGV[i + 2])
    redis.call('HSET', run .. ':st', ARGV[i + 1], json)
    redis.call('ZADD', run .. ':stq', seq, ARGV[i + 1])
    i = i + 3
  elseif op == 'e' then
    redis.call('HSET', run .. ':fx', ARGV[i + 1], ARGV[i + 2])
    i = i + 3
  elseif op == 'c' then
    redis.call('HSET', run .. ':att', ARGV[i + 1] .. ':c', ARGV[i + 2], ARGV[i + 1] .. ':u', ARGV[i + 3])
    i = i + 4
  elseif op == 't' then
    redis.call('HSET', run .. ':att', ARGV[i + 1] .. ':u', ARGV[i + 2])
    i = i + 3
  elseif op == 'h' then
    redis.call('HSET', run, 'idempotency', 'honoured')
    i = i + 1
  elseif op == 'ea' then
    redis.call('HSET', run .. ':att', ARGV[i + 1] .. ':end', ARGV[i + 2], ARGV[i + 1] .. ':u', ARGV[i + 3])
    i = i + 4
  elseif op == 'pc' then
    redis.call('HSET', run .. ':parts', ARGV[i + 1], ARGV[i + 2])
    i = i + 3
  elseif op == 'er' then
    redis.call('HSET', run, 'status', ARGV[i + 1], 'ended_at', ARGV[i + 2], 'outputs', ARGV[i + 3],
      'error', ARGV[i + 4], 'report', ARGV[i + 5], 'failed_call', ARGV[i + 6])
    redis.call('HDEL', run, 'holder')
    i = i + 7
  else
    return redis.error_reply('unknown journal operation ' .. tostring(op))
  end
end
return 'ok'
`);

/** Keeps a lease alive: KEYS lease. ARGV token, lease_ms. Replies 1, or 0 when it was lost. */
export const RENEW = new LuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
`);

/** Lets go of a lease if it is still ours: KEYS lease. ARGV token. */
export const RELEASE = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/**
 * Marks parts folded into their run's attempt (a distributed foreach gathered them): KEYS parts. ARGV part
 * names. A part with no counters yet gets zero counters, folded.
 */
export const FOLD_PARTS = new LuaScript(`
for i = 1, #ARGV do
  local text = redis.call('HGET', KEYS[1], ARGV[i])
  local c = text and cjson.decode(text) or {requests = 0, writes = 0, replayed_calls = 0}
  c.folded = true
  redis.call('HSET', KEYS[1], ARGV[i], cjson.encode(c))
end
return 'ok'
`);
