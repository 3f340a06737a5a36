import type { StoredConversation } from "./api-client.js";

/**
 * The conversation an exported page holds (an HTML export, a read-only link: the server puts it
 * in `<script id="debatt-export">`); undefined on the live page.
 */
export function exportedConversation(): StoredConversation | undefined {
  const data = document.getElementById("debatt-export")?.textContent;
  return data ? (JSON.parse(data) as { conversation: StoredConversation }).conversation : undefined;
}
