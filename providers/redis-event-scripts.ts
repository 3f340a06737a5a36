/** The Lua scripts of the Redis event log: each reads and writes a run's stream in one step, so nothing comes in between. */

/**
 * Appends events (ARGV: ttl, then name/data pairs) after the stream's last entry, unless the
 * stream is gone or ends with `done`. Returns the number appended. One script, so nothing comes
 * in between reading the last id and writing after it.
 */
export const END_ORPHAN = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 or last[1][2][2] == 'done' then return 0 end
local id = tonumber(string.match(last[1][1], '-(%d+)$'))
local n = 0
for i = 2, #ARGV, 2 do
  n = n + 1
  redis.call('XADD', KEYS[1], '0-' .. (id + n), 'e', ARGV[i], 'd', ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return n`;
/**
 * Appends events (ARGV: the writer, the ttl, then id/name/data triples) to a run's stream, unless
 * another instance has claimed the run (its owner key names another writer): then -1, nothing
 * written. Otherwise {written, taken}: an id already in the stream is not written again (a retry
 * after a lost reply, or another instance that ended the run's log).
 */
export const APPEND = `
local owner = redis.call('GET', KEYS[2])
if owner and owner ~= ARGV[1] then return -1 end
local written, taken = 0, 0
for i = 3, #ARGV, 3 do
  local ok = redis.pcall('XADD', KEYS[1], '0-' .. ARGV[i], 'e', ARGV[i + 1], 'd', ARGV[i + 2])
  if type(ok) == 'table' and ok.err then
    if not string.find(ok.err, 'equal or smaller') then return redis.error_reply(ok.err) end
    taken = taken + 1
  else
    written = written + 1
  end
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {written, taken}`;
/**
 * Makes ARGV[1] the run's only writer from now on and returns its last id: -1 when the run has
 * no stream (never announced, deleted, or expired), -2 when it has ended (its last event is `done`).
 */
export const CLAIM = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then return -1 end
if last[1][2][2] == 'done' then return -2 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return tonumber(string.match(last[1][1], '-(%d+)$'))`;
