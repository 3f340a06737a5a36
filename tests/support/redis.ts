/** The tests start real redis-server processes with the benchmarks' launcher. */
export { RedisServer, freePort, redisServerBinary } from "../../bench/redis-server.js";
