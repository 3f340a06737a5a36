/**
 * Who may see a run, a conversation, its events and its audio: the user who started it. Runs
 * started without users (AUTH=none, or before users existed) belong to the local user, and with
 * AUTH=tokens the admin (ADMIN_TOKEN) is their owner.
 */

/** The owner of what is done without users. */
export const LOCAL_OWNER = "local";
/** The admin's own user id (ADMIN_TOKEN). */
export const ADMIN_OWNER = "admin";

/** Who is asking. */
export interface Requester {
  id: string;
  admin: boolean;
}

/** Whether `requester` may see what `owner` started. */
export function mayAccess(requester: Requester, owner: string): boolean {
  return owner === requester.id || (requester.admin && owner === LOCAL_OWNER);
}

/** The owners whose conversations `requester` lists. */
export function ownersVisibleTo(requester: Requester): string[] {
  return requester.admin ? [requester.id, LOCAL_OWNER] : [requester.id];
}
