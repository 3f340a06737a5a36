import { createHash, randomBytes, randomUUID } from "node:crypto";
import { asc, eq, inArray } from "drizzle-orm";
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
}

/** The stored form of a token. Tokens are 256 random bits, so a plain SHA-256 cannot be reversed. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new token: `dbt_` and 43 base64url characters (256 bits). */
function newToken(): string {
  return `dbt_${randomBytes(32).toString("base64url")}`;
}

/** The users on Drizzle, in the history database (SQLite or PostgreSQL, as `DrizzleHistory`). */
export class DrizzleUsers implements UserStore {
  constructor(
    private readonly db: NodePgDatabase,
    private readonly t: Pick<typeof pgSchema, "users" | "shares" | "conversations">,
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
    const { users: u, shares: s, conversations: c } = this.t;
    const removed = await this.db.delete(u).where(eq(u.id, id)).returning({ id: u.id });
    // Nobody could withdraw the read-only links of a removed user's conversations any more: they go too.
    if (removed.length > 0) await this.db.delete(s).where(inArray(s.conversationId, this.db.select({ id: c.id }).from(c).where(eq(c.userId, id))));
    return removed.length > 0;
  }

  async byToken(token: string): Promise<User | undefined> {
    const u = this.t.users;
    const [row] = await this.db.select({ id: u.id, name: u.name, createdAt: u.createdAt }).from(u).where(eq(u.tokenHash, tokenHash(token)));
    return row;
  }
}
