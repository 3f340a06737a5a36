/** The tests start real redis-server processes (and pick free ports) with the benchmarks' launcher. */
export { RedisServer, freePort, redisServerBinary } from "../../bench/redis-server.js";
