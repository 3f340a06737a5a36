import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type * as pgSchema from "./schema-pg.js";

/** A user as lists show it (never with a token). */
export interface User {
  id: string;
  name: string;
  createdAt: Date;
}

/** A user just added, with the token shown this once. */
export interface NewUser extends User {
  token: string;
}

/** The people who may use the server when AUTH=tokens. */
export interface UserStore {
  /** Adds a user with a fresh token; the token is returned this once and stored only as a hash. */
  add(name: string): Promise<NewUser>;
  /** Every user, oldest first. */
  list(): Promise<User[]>;
  /** Removes a user; their token stops working at once. False if there is no such user. */
  remove(id: string): Promise<boolean>;
  /** The user a token belongs to, if any. */
  byToken(token: string): Promise<User | undefined>;
  /** Which of `ids` are users still. */
  existing(ids: readonly string[]): Promise<Set<string>>;
  /**
   * Opens a session of the page for `userId` (a user's id, or the admin's); `bound` gives what
   * ties the session to the credential signed in with, from the new session's id (a user's: their
   * token's hash, which `session` matches against the user's; the admin's: an HMAC under
   * ADMIN_TOKEN). Resolves with the session's id (shown only in the cookie, stored as a hash).
   */
  openSession(userId: string, bound: (sessionId: string) => string, ttlMs: number): Promise<string>;
  /** A session that has not expired: whose it is, the hash of the token it was opened with, and the user's name while that token is still theirs. */
  session(id: string): Promise<SessionRecord | undefined>;
  /** Ends a session (signing out); nothing when there is none. */
  closeSession(id: string): Promise<void>;
}

/** A session as the store has it. */
export interface SessionRecord {
  userId: string;
  credentialHash: string;
  /** The user's name, while the user exists and still has the token the session was opened with. */
  name?: string;
}

/** The stored form of a token. Tokens are 256 random bits, so a plain SHA-256 cannot be reversed. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new token: `dbt_` and 43 base64url characters (256 bits). */
function newToken(): string {
  return `dbt_${randomBytes(32).toString("base64url")}`;
}

/** A new session id: `dbs_` and 43 base64url characters (256 bits). */
function newSessionId(): string {
  return `dbs_${randomBytes(32).toString("base64url")}`;
}

/** The users on Drizzle, in the history database (SQLite or PostgreSQL, as `DrizzleHistory`). */
export class DrizzleUsers implements UserStore {
  constructor(
    private readonly db: NodePgDatabase,
    private readonly t: Pick<typeof pgSchema, "users" | "shares" | "conversations" | "sessions">,
  ) {}

  async add(name: string): Promise<NewUser> {
    const user = { id: randomUUID(), name, createdAt: new Date() };
    const token = newToken();
    await this.db.insert(this.t.users).values({ ...user, tokenHash: tokenHash(token) });
    return { ...user, token };
  }

  async list(): Promise<User[]> {
    const u = this.t.users;
    return this.db.select({ id: u.id, name: u.name, createdAt: u.createdAt }).from(u).orderBy(asc(u.createdAt), asc(u.id));
  }

  async remove(id: string): Promise<boolean> {
    const { users: u, shares: s, conversations: c, sessions } = this.t;
    const removed = await this.db.delete(u).where(eq(u.id, id)).returning({ id: u.id });
    // Nobody could withdraw the read-only links of a removed user's conversations any more: they go too.
    if (removed.length > 0) await this.db.delete(s).where(inArray(s.conversationId, this.db.select({ id: c.id }).from(c).where(eq(c.userId, id))));
    // Their sessions no longer resolve (the token they were opened with is gone); the rows go too.
    await this.db.delete(sessions).where(eq(sessions.userId, id));
    return removed.length > 0;
  }

  async byToken(token: string): Promise<User | undefined> {
    const u = this.t.users;
    const [row] = await this.db
      .select({ id: u.id, name: u.name, createdAt: u.createdAt })
      .from(u)
      .where(eq(u.tokenHash, tokenHash(token)));
    return row;
  }

  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const u = this.t.users;
    const rows = await this.db
      .select({ id: u.id })
      .from(u)
      .where(inArray(u.id, [...ids]));
    return new Set(rows.map((r) => r.id));
  }

  async openSession(userId: string, bound: (sessionId: string) => string, ttlMs: number): Promise<string> {
    const id = newSessionId();
    const now = new Date();
    const { sessions } = this.t;
    // Expired sessions are dropped as new ones open, so the table holds only live ones.
    await this.db.delete(sessions).where(lte(sessions.expiresAt, now));
    await this.db
      .insert(sessions)
      .values({ idHash: tokenHash(id), userId, credentialHash: bound(id), createdAt: now, expiresAt: new Date(now.getTime() + ttlMs) });
    return id;
  }

  async session(id: string): Promise<SessionRecord | undefined> {
    const { sessions: s, users: u } = this.t;
    const [row] = await this.db
      .select({ userId: s.userId, credentialHash: s.credentialHash, name: u.name })
      .from(s)
      .leftJoin(u, and(eq(u.id, s.userId), eq(u.tokenHash, s.credentialHash)))
      .where(and(eq(s.idHash, tokenHash(id)), gt(s.expiresAt, new Date())));
    return row && { userId: row.userId, credentialHash: row.credentialHash, ...(row.name === null ? {} : { name: row.name }) };
  }

  async closeSession(id: string): Promise<void> {
    const { sessions } = this.t;
    await this.db.delete(sessions).where(eq(sessions.idHash, tokenHash(id)));
  }
}
