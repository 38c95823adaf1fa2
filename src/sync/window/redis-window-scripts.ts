/**
 * The Lua scripts of the fleet's shared rate window (redis-window.ts runs them with EVALSHA).
 * KEYS[1]: sorted set of slots, member `<terminalId>:<instanceId>:<slot id>`, score = the Redis
 * time (ms) at which the slot stops counting. KEYS[2]: sorted set of terminals with punches waiting,
 * member `<terminalId>:<instanceId>`, score = until when. KEYS[3]: the same terminals, score = the
 * Redis time since which their oldest punch waits (an entry counts only while KEYS[2] has it);
 * KEYS[4] how many slots each would take at once; KEYS[5]: sorted set of reads waiting, member
 * `<priority>:<terminalId>:<instanceId>`, score = until when. Every script reads Redis's own clock
 * (TIME), so terminals whose clocks are wrong still agree on one window; each runs atomically, so
 * two terminals can never both take the last slot.
 *
 * Punches first, fleet-wide, two ways. A mark holds roster pages back exactly while some punch
 * waits, for the cost of one small sorted set. A reserve (a few slots roster pages never take)
 * serves the punch that comes while none waits: without it a sync fills the whole window in a
 * burst and the next punch waits for that burst to age out, up to a window. A terminal that dies while its mark stands
 * holds roster pages back until
 * the mark expires (at most one window, the request timeout and `holdMs`), never punches.
 * Members carry the process's random instance id beside the terminal id, so two terminals under one
 * id (a cloned disk image: the local slot ids of fresh databases start at 1 on each) never share a
 * member; the registry (ANNOUNCE_LUA) is what tells that two share an id.
 */

/**
 * The take script's KEYS for the window at `key`, in order: the terminals (redis-window.ts) and the
 * doctor's check of the script (agent/diagnostics/redis-probe.ts) both pass these, so they cannot drift.
 */
export function takeKeys(key: string): [string, string, string, string, string] {
  return [key, `${key}:punch-waiting`, `${key}:punch-oldest`, `${key}:punch-want`, `${key}:read-waiting`];
}

/** Shared head: `now` in ms of Redis time; `keep` makes a key outlive every score it holds, and no more. */
const PRELUDE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function keep(key, untilMs)
  local left = math.ceil(untilMs - now) + 1000
  if redis.call('PTTL', key) < left then redis.call('PEXPIRE', key, left) end
end
`;

/**
 * ARGV: limit, windowMs, inFlightMs, member, priority (0: a punch), `<terminalId>:<instanceId>`, holdMs, reserve (the
 * slots anything but a punch leaves free: the punch reserve, or most of the window for self-service),
 * and for a punch: how long (ms) this terminal's oldest waiting punch has waited, how long the one
 * after it has (-1: none), and how many more slots it would take at once after this one. KEYS[4]:
 * a hash, waiting terminal -> how many slots it would take at once. Returns {1, 0} when the slot was
 * taken, {0, waitMs} when not: the time until a slot frees (for a punch behind older ones: the first
 * past those kept for them, or the soonest of their marks' expiry if sooner), or until the earliest
 * mark ahead of it expires.
 *
 * A taken slot counts as in flight until now + window + request timeout; the release rescores it.
 * A punch refused marks its terminal as waiting until it comes back for the slot (waitMs) plus
 * `holdMs`: when that slot frees, the punch finds it before any roster page does.
 *
 * Fairness (issue 24 item 3): the free slots go to the oldest waiting punches of the fleet, not to
 * whoever asks first. A punch is refused while the other live terminals whose oldest punch waits
 * longer would take all the free slots at once (each as many as it said, at least one); those are
 * kept for them until their marks expire (their return, plus `holdMs`), so a terminal that died or
 * stopped asking costs the others at most that. Ages are durations on the terminal's clock, turned
 * into Redis time here, so a terminal whose clock is wrong is neither favoured nor starved. A
 * terminal that takes a slot with more punches behind it keeps a mark for `holdMs`, with the next
 * one's age and how many it would take.
 *
 * Reads (anything but a punch) go by band fleet-wide too: a read refused marks its band (KEYS[5])
 * until it comes back plus `holdMs`, and a read of a later band is refused while another terminal
 * marks an earlier one, so one terminal's prefetch of self-service days cannot keep another's
 * warden board waiting. A read behind a slot still in flight comes back within a tenth of a window
 * rather than at the in-flight horizon: the answer frees it a window after it arrives, usually far
 * sooner, and a terminal told the horizon lost every such slot to one that asked sooner.
 */
export const TAKE_LUA = `${PRELUDE}
local limit, window, inflight = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local punch, hold = ARGV[5] == '0', tonumber(ARGV[7])
local self = ARGV[6]
if not punch then limit = limit - tonumber(ARGV[8] or '0') end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 100)
for i = 1, #gone do
  redis.call('ZREM', KEYS[3], gone[i])
  redis.call('HDEL', KEYS[4], gone[i])
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
local band = tonumber(ARGV[5]) or 0
local readMember = band .. ':' .. self
-- This terminal's read of \`band\` waits until \`untilMs\`.
local function readMark(untilMs)
  local cur = redis.call('ZSCORE', KEYS[5], readMember)
  if not cur or tonumber(cur) < untilMs then redis.call('ZADD', KEYS[5], untilMs, readMember) end
  keep(KEYS[5], math.max(untilMs, cur and tonumber(cur) or 0))
end
if not punch then
  local mark = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  if mark[1] then return {0, math.max(1, tonumber(mark[2]) - now)} end
  local reads = redis.call('ZRANGE', KEYS[5], 0, 63, 'WITHSCORES')
  local earlier = nil
  for i = 1, #reads, 2 do
    local b, who = string.match(reads[i], '^(%d+):(.*)$')
    if b and tonumber(b) < band and who ~= self then
      local s = tonumber(reads[i + 1])
      if not earlier or s < earlier then earlier = s end
    end
  end
  if earlier then
    local wait = math.max(1, math.min(earlier - now, math.floor(window / 10)))
    readMark(now + wait + hold)
    return {0, wait}
  end
end
local since = now - math.max(0, tonumber(ARGV[9] or '0') or 0)
local nextAge = tonumber(ARGV[10] or '-1') or -1
local more = math.max(0, tonumber(ARGV[11] or '0') or 0)
-- This terminal waits (since \`since\`, for \`want\` slots) until \`untilMs\`; never shortens a mark it has.
local function mark(untilMs, sinceMs, want)
  local cur = redis.call('ZSCORE', KEYS[2], self)
  if not cur or tonumber(cur) < untilMs then redis.call('ZADD', KEYS[2], untilMs, self) end
  redis.call('ZADD', KEYS[3], sinceMs, self)
  redis.call('HSET', KEYS[4], self, want)
  local last = math.max(untilMs, cur and tonumber(cur) or 0)
  keep(KEYS[2], last)
  keep(KEYS[3], last)
  keep(KEYS[4], last)
end
local function unmark()
  redis.call('ZREM', KEYS[2], self)
  redis.call('ZREM', KEYS[3], self)
  redis.call('HDEL', KEYS[4], self)
end
local used = redis.call('ZCARD', KEYS[1])
if used < limit then
  if punch then
    local free = limit - used
    local older = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. since, 'LIMIT', 0, 64)
    local ahead, soonest = 0, nil
    for i = 1, #older do
      if ahead >= free then break end
      if older[i] ~= self then
        local live = redis.call('ZSCORE', KEYS[2], older[i])
        if live then
          ahead = ahead + math.max(1, tonumber(redis.call('HGET', KEYS[4], older[i]) or '1') or 1)
          if not soonest or tonumber(live) < soonest then soonest = tonumber(live) end
        else
          redis.call('ZREM', KEYS[3], older[i])
          redis.call('HDEL', KEYS[4], older[i])
        end
      end
    end
    if ahead >= free then
      -- Back when the first slot past those kept frees, when the soonest mark ahead lapses, or within a
      -- tenth of a window: an older terminal may not use every slot kept for it as fast as they free.
      local past = redis.call('ZRANGE', KEYS[1], used + ahead - limit, used + ahead - limit, 'WITHSCORES')
      local wait = math.min(soonest - now, math.floor(window / 10))
      if past[2] then wait = math.min(wait, tonumber(past[2]) - now) end
      wait = math.max(1, wait)
      mark(now + wait + hold, since, more + 1)
      return {0, wait}
    end
  end
  redis.call('ZADD', KEYS[1], now + window + inflight, ARGV[4])
  keep(KEYS[1], now + window + inflight)
  if not punch then redis.call('ZREM', KEYS[5], readMember) end
  if punch then
    -- -1: nothing more waits; -2: not said (a caller without a queue): its mark lapses on its own, as before.
    if nextAge >= 0 then mark(now + hold, now - nextAge, math.max(1, more)) elseif nextAge == -1 then unmark() end
  end
  return {1, 0}
end
local freeing = redis.call('ZRANGE', KEYS[1], used - limit, used - limit, 'WITHSCORES')
local wait = math.max(1, tonumber(freeing[2]) - now)
if punch then
  mark(now + wait + hold, since, more + 1)
else
  if tonumber(freeing[2]) > now + window then wait = math.max(1, math.min(wait, math.floor(window / 10))) end
  readMark(now + wait + hold)
end
return {0, wait}
`;

/** ARGV: member, windowMs. The answer arrived: the slot counts one window from now (Redis time). */
export const RELEASE_LUA = `${PRELUDE}
local untilMs = now + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], untilMs, ARGV[1])
keep(KEYS[1], untilMs)
return 1
`;

/**
 * ARGV: member, countsForMs, member, countsForMs, ... Slots the terminal holds (taken while Redis
 * was out of reach, or lost by a Redis restart) are put back, each counting for as long as it still
 * counts locally: durations, not instants, so the terminal's clock error does not matter. A score
 * already higher is kept (the safer of the two). Returns how many were added or raised.
 */
export const RESTORE_LUA = `${PRELUDE}
local changed = 0
for i = 1, #ARGV, 2 do
  local untilMs = now + tonumber(ARGV[i + 1])
  local cur = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if not cur or tonumber(cur) < untilMs then
    redis.call('ZADD', KEYS[1], untilMs, ARGV[i])
    keep(KEYS[1], untilMs)
    changed = changed + 1
  end
end
return changed
`;

/**
 * KEYS[1]: the account's registry of live terminals (a sorted set: member = the terminal's entry, a
 * JSON text with its id, instance, host, pid and start; score = the Redis time its entry expires).
 * ARGV: entry, ttlMs. Drops the expired entries, renews this one, and answers every live entry.
 */
export const ANNOUNCE_LUA = `${PRELUDE}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local untilMs = now + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], untilMs, ARGV[1])
keep(KEYS[1], untilMs)
return redis.call('ZRANGE', KEYS[1], 0, -1)
`;
