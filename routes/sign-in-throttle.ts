import { isIPv6 } from "node:net";
import { HttpError } from "./errors.js";

/**
 * Where a credential is presented: the users' door (`/api/v1`, `/v1`, `/mcp`, the sign-in and
 * the session), or the admin API's. Each counts its own failures, so guesses at one door never
 * lock anyone out of the other.
 */
export type Door = "users" | "admin";

/** Refused credentials allowed per client address and door in a window, then 429. */
const FAILED_SIGN_INS = 20;
const WINDOW_MS = 10 * 60_000;
/** Addresses tracked at most; past that the expired ones are dropped, then the oldest. */
const MAX_TRACKED = 10_000;

/**
 * Whom an address counts for: an IPv4 address as it is (also written IPv4-mapped, `::ffff:…`),
 * an IPv6 address by its /64 network, which one client (one home, one server) usually has whole:
 * it cannot dodge the count by taking another address of it.
 */
export function clientOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * Counts refused credentials (a token that is sent and is not valid), per client address and
 * door; nothing else counts: not a request without a token, not a stream the client dropped,
 * not a refusal for any other reason. From the 21st in ten minutes, the door refuses that
 * address's unproven credentials with 429 and `Retry-After` until the window ends. The address is
 * the client's own behind a trusted proxy (`TRUST_PROXY`), so one client cannot lock out the
 * others who share the proxy. Counted per process.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly limit = FAILED_SIGN_INS,
    private readonly windowMs = WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `address` may present credentials at `door` again, or 0 when it may now. */
  lockedFor(door: Door, address: string): number {
    const entry = this.failures.get(`${door} ${clientOf(address)}`);
    if (!entry || entry.until <= this.now() || entry.count < this.limit) return 0;
    return Math.ceil((entry.until - this.now()) / 1000);
  }

  /** Throws 429 `too_many_attempts` while `address` is locked out of `door`. */
  check(door: Door, address: string): void {
    const seconds = this.lockedFor(door, address);
    if (seconds > 0) throw tooMany(seconds);
  }

  /** Counts a refused credential from `address` at `door`. */
  failed(door: Door, address: string): void {
    const key = `${door} ${clientOf(address)}`;
    const now = this.now();
    const entry = this.failures.get(key);
    if (entry && entry.until > now) {
      entry.count++;
      return;
    }
    if (this.failures.size >= MAX_TRACKED) this.prune(now);
    this.failures.delete(key);
    this.failures.set(key, { count: 1, until: now + this.windowMs });
  }

  /** Drops the expired entries, and the oldest while there are still too many. */
  private prune(now: number): void {
    for (const [key, entry] of this.failures) if (entry.until <= now) this.failures.delete(key);
    for (const key of this.failures.keys()) {
      if (this.failures.size < MAX_TRACKED) break;
      this.failures.delete(key);
    }
  }
}

/** The answer to a locked-out address. */
export function tooMany(seconds: number): HttpError {
  return new HttpError(429, "too_many_attempts", `too many failed sign-ins from this address; retry after ${seconds} s`, { "Retry-After": String(seconds) });
}
