import { Router } from "express";
import type { UserStore } from "../history/users.js";
import { HttpError } from "./errors.js";

/** Longest user name. */
const MAX_NAME = 80;

/**
 * `/users` under /api/v1/admin: POST `{name}` adds a user and answers `201 {id, name, token}`
 * (the token is shown this once and stored only as a hash), GET lists them (never a token),
 * DELETE `/users/:id` removes one: their token and sessions stop working at once, and `removed`
 * stops their runs (here at once; other instances notice within seconds).
 */
export function adminUsersRouter(users: UserStore | undefined, removed: (id: string) => void = () => {}): Router {
  const router = Router();
  const store = () => {
    if (!users) throw new HttpError(503, "users_unavailable", "this server keeps no history database, so it has no users");
    return users;
  };
  router.post("/users", async (req, res) => {
    const name = (req.body as { name?: unknown } | undefined)?.name;
    if (typeof name !== "string" || name.trim() === "" || name.length > MAX_NAME || /\p{Cc}/u.test(name)) {
      throw new HttpError(400, "invalid_body", `the body must be {"name": "<1–${MAX_NAME} characters, no control characters>"}`);
    }
    const { id, name: saved, token, createdAt } = await store().add(name.trim());
    res.status(201).json({ id, name: saved, token, createdAt });
  });
  router.get("/users", async (_req, res) => {
    res.json({ users: await store().list() });
  });
  router.delete("/users/:id", async (req, res) => {
    if (!(await store().remove(req.params.id))) throw new HttpError(404, "user_not_found", `no user "${req.params.id}"`);
    removed(req.params.id);
    res.status(204).end();
  });
  router.all(["/users", "/users/:id"], (req) => {
    const allow = req.path === "/users" ? "GET, POST" : "DELETE";
    throw new HttpError(405, "method_not_allowed", `${req.method} is not allowed here; use ${allow}`, { Allow: allow });
  });
  return router;
}
