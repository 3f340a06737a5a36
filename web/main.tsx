import { render } from "preact";
import { exportedConversation } from "./export-bootstrap.js";
import { revealOpenedPanels } from "./reveal.js";
import { ExportedRoot, Root } from "./router.js";
import "./styles.css";

/*
 * The page's entry (web/index.html loads it; Vite bundles from here): an exported conversation
 * (an HTML export, a read-only link) is shown read-only, anything else is the live page. The
 * modules: router.tsx (the roots and the hash), app.tsx (the chat), answer.tsx (an answer),
 * composer.tsx (the message box), menus.tsx (a run's export and share menu), api-client.ts (the
 * REST calls).
 */
const exported = exportedConversation();
revealOpenedPanels();

render(exported ? <ExportedRoot conversation={exported} /> : <Root />, document.getElementById("app")!);
