import { build } from "vite";
import { haveChromium } from "./browser.js";

/**
 * The integration project's global setup: builds the page once (into web/dist, which the test
 * servers serve) before any browser test file starts, so that two such files running at once
 * never rebuild it under each other's pages. Without chromium there is nothing to build it for.
 */
export default async function setup(): Promise<void> {
  if (haveChromium) await build({ configFile: "vite.config.ts", logLevel: "error" });
}
