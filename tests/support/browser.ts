import { existsSync, readFileSync } from "node:fs";
import type { Page } from "playwright-core";

/** Debian's chromium, which the browser tests drive through playwright-core. */
export const CHROMIUM = "/usr/bin/chromium";
/** Whether the browser tests can run here. */
export const haveChromium = existsSync(CHROMIUM);
/** Where the browser tests leave their screenshots. */
export const ARTIFACTS = "tests/artifacts";
/** The options chromium is started with in a container. */
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--headless"];

/** axe-core, evaluated in the page to find accessibility violations. */
const AXE_SOURCE = readFileSync("node_modules/axe-core/axe.min.js", "utf8");

/**
 * The accessibility violations axe-core finds in the page under the given rule tags, as `id (n)`;
 * with `impacts`, only those of these impacts.
 */
export async function accessibilityViolations(page: Page, tags: string[] = ["wcag2a", "wcag2aa"], impacts?: string[]): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (rightly) refuses an injected script tag.
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async (runOnly) => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const { violations } = await axe.run(document, { runOnly });
    return violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) }));
  }, tags);
  return found.filter((v) => !impacts || impacts.includes(v.impact)).map((v) => `${v.id} (${v.targets.length}: ${v.targets.slice(0, 3).join(", ")})`);
}

/**
 * The words inside the elements `selector` matches that the browser drew over more than one line
 * (each word's `Range.getClientRects()`), each named with its element's text and width.
 */
export async function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((names) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(names)) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const m of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) out.push(`"${m[0]}" of "${el.textContent}" over ${lines.size} lines (${Math.round(el.getBoundingClientRect().width)} px wide)`);
        }
      }
    }
    return out;
  }, selector);
}

/**
 * The elements `parts` matches that the browser drew (in part) outside the box of their nearest
 * ancestor `boxes` matches (each one's `getBoundingClientRect`), each named with its text and how
 * far it reaches out; elements drawn with no width are left out.
 */
export async function outsideTheirBox(page: Page, boxes: string, parts: string): Promise<string[]> {
  return page.evaluate(
    ([boxSelector, partSelector]) => {
      const out: string[] = [];
      for (const part of document.querySelectorAll<HTMLElement>(partSelector)) {
        const box = part.parentElement?.closest(boxSelector)?.getBoundingClientRect();
        const r = part.getBoundingClientRect();
        if (!box || r.width === 0) continue;
        // Half a pixel of slack for subpixel layout.
        const past = { left: box.left - r.left, right: r.right - box.right, top: box.top - r.top, bottom: r.bottom - box.bottom };
        const sides = Object.entries(past).filter(([, px]) => px > 0.5);
        if (sides.length > 0)
          out.push(
            `"${part.textContent}" (${part.tagName.toLowerCase()}.${[...part.classList].join(".")}) ${sides.map(([side, px]) => `${Math.round(px)} px past the ${side}`).join(", ")}`,
          );
      }
      return out;
    },
    [boxes, parts],
  );
}
