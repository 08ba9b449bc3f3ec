/**
 * The Lua scripts the Redis-backed state runs. Each runs atomically in Redis (no other command
 * interleaves), which is what makes ids, quotas and replacements exact across replicas, and each
 * is one round trip. ARGV[1] is always the key prefix; key names are built from it inside the
 * scripts, so the scripts suit a single Redis (or a primary with replicas), not Redis Cluster.
 *
 * Lua numbers are doubles: ids up to 2^53 - 1 and millisecond times are exact in them, and are
 * written back with string.format('%d') (tostring would round them to 14 digits).
 */

const common = `
local P = ARGV[1]
local function fmt(n) return string.format('%d', n) end
`;

/** Stores a pet's JSON under `base` (the live keys, or a staging area): by id, in the id order of all pets and of its status. */
const storePet = `
local function storePet(base, sid, status, json)
  redis.call('HSET', base .. 'pets', sid, json)
  redis.call('ZADD', base .. 'pets:all', sid, sid)
  if status ~= '' then
    redis.call('ZADD', base .. 'pets:status:' .. status, sid, sid)
    redis.call('SADD', base .. 'pets:statuses', status)
  end
end
`;

/**
 * The pet operations an API request runs, as Lua functions: on their own (stepLua) or after the
 * request's admission in the same script (admitLua), so that a request costs one round trip.
 * runStep(kind, a, b, c) returns a tag and a payload:
 * - 'create', status ('' for none), the pet's JSON members after the id: 'created' and the pet's
 *   JSON, or 'exhausted' when every id up to 2^53 - 1 has been issued;
 * - 'get', id: 'pet' and its JSON, or nil;
 * - 'page', status ('' for all), limit, the version of the page the replica holds ('' for none):
 *   the pets' version, and the pets' JSON texts newest first (descending id), or nil when the
 *   replica's page is still current.
 */
const petSteps = `${storePet}
local function createPet(status, members)
  local id = redis.call('INCR', P .. 'pets:seq')
  if id > 9007199254740991 then
    redis.call('DECR', P .. 'pets:seq')
    return false
  end
  local sid = fmt(id)
  local json = '{"id":' .. sid .. ',' .. members .. '}'
  storePet(P, sid, status, json)
  redis.call('INCR', P .. 'pets:version')
  return json
end
local function runStep(kind, a, b, c)
  if kind == 'create' then
    local json = createPet(a, b)
    if not json then return 'exhausted', false end
    return 'created', json
  elseif kind == 'get' then
    return 'pet', redis.call('HGET', P .. 'pets', a)
  end
  local version = (redis.call('GET', P .. 'epoch') or '') .. ':' .. (redis.call('GET', P .. 'pets:version') or '0')
  if version == c then return version, false end
  -- ZREVRANGE to -1 would be every pet: a page of none is none.
  if tonumber(b) < 1 then return version, {} end
  local set = a == '' and (P .. 'pets:all') or (P .. 'pets:status:' .. a)
  local ids = redis.call('ZREVRANGE', set, 0, tonumber(b) - 1)
  if #ids == 0 then return version, {} end
  return version, redis.call('HMGET', P .. 'pets', unpack(ids))
end
`;

/** ARGV: prefix, then runStep's kind and arguments (petSteps). Returns runStep's tag and payload. */
export const stepLua = `${common}${petSteps}
local tag, out = runStep(ARGV[2], ARGV[3], ARGV[4], ARGV[5])
return { tag, out }
`;

/** ARGV: prefix. Every pet's JSON in ascending id order, read in batches (unpack has a stack limit). */
export const allPetsLua = `${common}
local ids = redis.call('ZRANGE', P .. 'pets:all', 0, -1)
local out = {}
for i = 1, #ids, 1000 do
  local batch = redis.call('HMGET', P .. 'pets', unpack(ids, i, math.min(i + 999, #ids)))
  for _, json in ipairs(batch) do out[#out + 1] = json end
end
return out
`;

/**
 * Stages pets for a replacement, a batch per call, under keys of their own (`staging:<token>:…`)
 * that nobody reads, so a replacement of any size goes in as several modest commands and still
 * appears at once (replaceStateLua renames the staged keys into place). Staged keys expire after
 * ten minutes should the replacement never be committed.
 * ARGV: prefix, token, then (id, status or '', pet JSON) per pet.
 */
export const stagePetsLua = `${common}${storePet}
local S = P .. 'staging:' .. ARGV[2] .. ':'
local highest = tonumber(redis.call('GET', S .. 'highest') or '0')
for i = 3, #ARGV, 3 do
  local sid, status, json = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  storePet(S, sid, status, json)
  local n = tonumber(sid)
  if n > highest then highest = n end
end
redis.call('SET', S .. 'highest', fmt(highest))
local staged = { 'pets', 'pets:all', 'pets:statuses', 'highest' }
for _, s in ipairs(redis.call('SMEMBERS', S .. 'pets:statuses')) do staged[#staged + 1] = 'pets:status:' .. s end
for _, name in ipairs(staged) do redis.call('PEXPIRE', S .. name, 600000) end
return 1
`;

/**
 * Replaces the state with the pets staged under a token (none staged: no pets). ARGV: prefix,
 * mode, epoch, next-id floor, token, key count (-1 leaves the keys), then (digest, entry JSON) per key.
 * Modes: 'replace' (pets, and keys when given); 'seed' (everything, only when nothing was seeded
 * yet: returns 0 and drops the staged pets when a seed is there); 'reset' (everything: pets, keys,
 * counters and bans, request log, clock). The id sequence never goes down: the next id stays
 * above every id ever issued.
 */
export const replaceStateLua = `${common}
local mode = ARGV[2]
local S = P .. 'staging:' .. ARGV[5] .. ':'
local stagedStatuses = redis.call('SMEMBERS', S .. 'pets:statuses')
if mode == 'seed' and redis.call('EXISTS', P .. 'seeded') == 1 then
  for _, s in ipairs(stagedStatuses) do redis.call('DEL', S .. 'pets:status:' .. s) end
  redis.call('DEL', S .. 'pets', S .. 'pets:all', S .. 'pets:statuses', S .. 'highest')
  return 0
end
for _, s in ipairs(redis.call('SMEMBERS', P .. 'pets:statuses')) do
  redis.call('DEL', P .. 'pets:status:' .. s)
end
redis.call('DEL', P .. 'pets', P .. 'pets:all', P .. 'pets:statuses')
local moved = { 'pets', 'pets:all', 'pets:statuses' }
for _, s in ipairs(stagedStatuses) do moved[#moved + 1] = 'pets:status:' .. s end
for _, name in ipairs(moved) do
  if redis.call('EXISTS', S .. name) == 1 then
    redis.call('RENAME', S .. name, P .. name)
    redis.call('PERSIST', P .. name)
  end
end
local highest = tonumber(redis.call('GET', S .. 'highest') or '0')
redis.call('DEL', S .. 'highest')
local seq = tonumber(redis.call('GET', P .. 'pets:seq') or '0')
redis.call('SET', P .. 'pets:seq', fmt(math.max(seq, highest, tonumber(ARGV[4]) - 1)))
redis.call('INCR', P .. 'pets:version')
local keyCount = tonumber(ARGV[6])
if keyCount >= 0 then
  redis.call('DEL', P .. 'keys')
  for k = 7, 6 + 2 * keyCount, 2 do redis.call('HSET', P .. 'keys', ARGV[k], ARGV[k + 1]) end
end
if mode ~= 'replace' then
  redis.call('DEL', P .. 'log', P .. 'log:dropped', P .. 'clock')
  -- Counters and bans live under a generation: a new one forgets them all at once; the old
  -- buckets expire on their own.
  redis.call('INCR', P .. 'rate:gen')
end
if mode == 'seed' then
  redis.call('SET', P .. 'epoch', ARGV[3])
  redis.call('SET', P .. 'seeded', '1')
end
return 1
`;

const readClock = `
local clockState = redis.call('HMGET', P .. 'clock', 'offset', 'frozenAt')
local offset = tonumber(clockState[1] or '0')
local frozenAt = clockState[2] and tonumber(clockState[2]) or false
`;

/**
 * The guard's one step: find the key (when a digest is given), read the shared clock, and count the
 * request against the key's bucket or the anonymous one, exactly as mock/rateLimiter.ts decides.
 * ARGV: prefix, digest or '', anonymous bucket id, its per-minute and per-day limits, the replica's
 * base time (ms), ban threshold, ban length (ms), '1' to spend or '0' to peek; then, to run a pet
 * operation in the same step once the request is admitted with a key, the fault rules' version the
 * replica matched the request against (the operation is not run when the rules changed since: a
 * new rule may take the request) and runStep's kind and arguments (petSteps), or nothing.
 * Returns: key entry JSON or nil, allowed, banned, limit, remaining, reset (s), retryAfter (s),
 * now (ms), clock offset (ms), frozenAt (ms) or nil, the fault rules' version (redisFaultRules.ts),
 * runStep's tag and payload, or nil when the operation was not run, and the window limit, remaining
 * and reset describe ('minute' or 'day', as rateLimiter.ts names it).
 */
export const admitLua = `${common}${petSteps}
local entry = false
local bucket, perMinute, perDay = ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
if ARGV[2] ~= '' then
  entry = redis.call('HGET', P .. 'keys', ARGV[2])
  if entry then
    local e = cjson.decode(entry)
    bucket, perMinute, perDay = e.bucketId, e.limits.perMinute, e.limits.perDay
  end
end
${readClock}
local now = frozenAt or (tonumber(ARGV[6]) + offset)
local threshold, banMs, spend = tonumber(ARGV[7]), tonumber(ARGV[8]), ARGV[9] == '1'
local key = P .. 'rate:' .. (redis.call('GET', P .. 'rate:gen') or '0') .. ':' .. bucket
local b = redis.call('HMGET', key, 'ms', 'mc', 'ds', 'dc', 'st', 'bu')
local minuteStart = now - (now % 60000)
local dayStart = now - (now % 86400000)
local mc = (tonumber(b[1]) == minuteStart) and tonumber(b[2]) or 0
local dc = (tonumber(b[3]) == dayStart) and tonumber(b[4]) or 0
local strikes = tonumber(b[5]) or 0
local bannedUntil = tonumber(b[6]) or 0
local minuteReset, dayReset = minuteStart + 60000, dayStart + 86400000

local allowed, banned, limit, remaining, reset, retryAfter, window
local function refuse(untilMs, isBan)
  allowed, banned, remaining = 0, isBan and 1 or 0, 0
  limit = (dc >= perDay) and perDay or perMinute
  window = (dc >= perDay) and 'day' or 'minute'
  reset = math.ceil(untilMs / 1000)
  -- At least one second: "Retry-After: 0" would invite an immediate retry (RFC 9110, 10.2.3).
  retryAfter = math.max(1, math.ceil((untilMs - now) / 1000))
end

if bannedUntil > now then
  if spend then strikes = strikes + 1 end
  refuse(bannedUntil, true)
elseif mc >= perMinute or dc >= perDay then
  if spend then strikes = strikes + 1 end
  if spend and strikes >= threshold then
    strikes = 0
    bannedUntil = now + banMs
    refuse(bannedUntil, true)
  else
    refuse((dc >= perDay) and dayReset or minuteReset, false)
  end
else
  if spend then
    mc, dc, strikes = mc + 1, dc + 1, 0
  end
  local minuteLeft, dayLeft = perMinute - mc, perDay - dc
  local dayBinds = dayLeft <= minuteLeft
  allowed, banned, retryAfter = 1, 0, 0
  limit = dayBinds and perDay or perMinute
  window = dayBinds and 'day' or 'minute'
  remaining = dayBinds and dayLeft or minuteLeft
  reset = math.ceil((dayBinds and dayReset or minuteReset) / 1000)
end

if spend then
  redis.call('HSET', key, 'ms', fmt(minuteStart), 'mc', fmt(mc), 'ds', fmt(dayStart), 'dc', fmt(dc), 'st', fmt(strikes), 'bu', fmt(bannedUntil))
  -- Only to collect buckets nobody uses any more: a day after their day window or ban ends
  -- (in real time, so a frozen mock clock keeps them at least that long).
  redis.call('PEXPIRE', key, math.max(dayReset, bannedUntil) - now + 86400000)
end
local faultsVersion = redis.call('GET', P .. 'faults:version') or '0'
local tag, out = false, false
if ARGV[11] and spend and allowed == 1 and entry and ARGV[10] == faultsVersion then
  tag, out = runStep(ARGV[11], ARGV[12], ARGV[13], ARGV[14])
end
return { entry, allowed, banned, limit, remaining, reset, retryAfter, fmt(now), fmt(offset), frozenAt and fmt(frozenAt) or false, faultsVersion, tag, out, window }
`;

/**
 * Reads or moves the shared clock. ARGV: prefix, operation (read, advance, freeze, freezeAt,
 * unfreeze, reset), the replica's base time (ms), milliseconds to advance or the instant to freeze
 * at (ms), the latest time allowed (ms).
 * Returns: offset (ms), frozenAt (ms) or nil.
 */
export const clockLua = `${common}
${readClock}
local op, base = ARGV[2], tonumber(ARGV[3])
if op == 'advance' then
  local ms = tonumber(ARGV[4])
  if (frozenAt or (base + offset)) + ms > tonumber(ARGV[5]) then
    return redis.error_reply('CLOCK_OUT_OF_RANGE the clock would pass the latest time allowed')
  end
  if frozenAt then frozenAt = frozenAt + ms else offset = offset + ms end
elseif op == 'freeze' then
  if not frozenAt then frozenAt = base + offset end
elseif op == 'freezeAt' then
  frozenAt = tonumber(ARGV[4])
elseif op == 'unfreeze' then
  if frozenAt then
    offset = frozenAt - base
    frozenAt = false
  end
elseif op == 'reset' then
  offset, frozenAt = 0, false
end
if op ~= 'read' then
  redis.call('DEL', P .. 'clock')
  redis.call('HSET', P .. 'clock', 'offset', fmt(offset))
  if frozenAt then redis.call('HSET', P .. 'clock', 'frozenAt', fmt(frozenAt)) end
end
return { fmt(offset), frozenAt and fmt(frozenAt) or false }
`;

/** ARGV: prefix, capacity, entry JSON. Appends, trims to the capacity, counts what was pushed out. */
export const logRequestLua = `${common}
local n = redis.call('RPUSH', P .. 'log', ARGV[3])
local capacity = tonumber(ARGV[2])
if n > capacity then
  redis.call('LTRIM', P .. 'log', n - capacity, -1)
  redis.call('INCRBY', P .. 'log:dropped', n - capacity)
end
return n
`;

/**
 * Adds a fault rule after the others. Each rule is a hash (`fault:<id>`: its JSON, answers left or
 * -1, answers given, the state of its draws, its probability); `faults` orders the ids; every
 * change bumps `faults:version`, which each admission reads back, so a replica learns of a change
 * with the request that follows it. ARGV: prefix, rule JSON, left, draw state, probability.
 * Returns: id, version.
 */
export const addFaultLua = `${common}
local n = redis.call('INCR', P .. 'faults:seq')
local id = 'fault-' .. fmt(n)
redis.call('ZADD', P .. 'faults', n, id)
redis.call('HSET', P .. 'fault:' .. id, 'rule', ARGV[2], 'left', ARGV[3], 'fired', '0', 'draws', ARGV[4], 'p', ARGV[5])
return { id, fmt(redis.call('INCR', P .. 'faults:version')) }
`;

/**
 * The first of the given rules (those that match a request, in order) that fires: it has answers
 * left and, below a probability of 1, its next draw (mock/faults/faultDraws.ts, the same numbers) is
 * under it. Counts the answer; a rule that runs out bumps the version, so replicas stop asking for
 * it. ARGV: prefix, ids. Returns: id, fired, left; or nil when none fires.
 */
export const fireFaultLua = `${common}
for i = 2, #ARGV do
  local k = P .. 'fault:' .. ARGV[i]
  local f = redis.call('HMGET', k, 'left', 'fired', 'draws', 'p')
  local left = tonumber(f[1])
  if left and left ~= 0 then
    local p, fires = tonumber(f[4]), true
    if p < 1 then
      local draws = (tonumber(f[3]) * 48271) % 2147483647
      redis.call('HSET', k, 'draws', fmt(draws))
      fires = draws / 2147483647 < p
    end
    if fires then
      local fired = tonumber(f[2]) + 1
      if left > 0 then left = left - 1 end
      redis.call('HSET', k, 'left', fmt(left), 'fired', fmt(fired))
      if left == 0 then redis.call('INCR', P .. 'faults:version') end
      return { ARGV[i], fmt(fired), fmt(left) }
    end
  end
end
return false
`;

/** ARGV: prefix. Returns: version, then (id, rule JSON, fired, left) per rule, in order. */
export const listFaultsLua = `${common}
local out = { redis.call('GET', P .. 'faults:version') or '0' }
for _, id in ipairs(redis.call('ZRANGE', P .. 'faults', 0, -1)) do
  local f = redis.call('HMGET', P .. 'fault:' .. id, 'rule', 'fired', 'left')
  if f[1] then
    out[#out + 1] = id
    out[#out + 1] = f[1]
    out[#out + 1] = f[2]
    out[#out + 1] = f[3]
  end
end
return out
`;

/** Removes one rule, or every rule when the id is ''. ARGV: prefix, id. Returns: how many went, version. */
export const removeFaultsLua = `${common}
local ids = ARGV[2] == '' and redis.call('ZRANGE', P .. 'faults', 0, -1) or { ARGV[2] }
local removed = 0
for _, id in ipairs(ids) do
  removed = removed + redis.call('ZREM', P .. 'faults', id)
  redis.call('DEL', P .. 'fault:' .. id)
end
return { removed, fmt(redis.call('INCR', P .. 'faults:version')) }
`;
