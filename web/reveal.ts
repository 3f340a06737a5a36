/**
 * What the reader opens is brought into view: a menu or panel (a `<details>` they open, such as a
 * run's "Export and share", a ranker's evaluation, a round's table) may open below the fold, under
 * the sticky message box, where a click seems to do nothing. Only what a person opened, by click or
 * keyboard (which clicks the summary), scrolls: a panel a run opens by itself does not move the page.
 */
export function revealOpenedPanels(root: Document = document): void {
  root.addEventListener("click", (e) => {
    const summary = e.target instanceof Element ? e.target.closest("summary") : null;
    const details = summary?.parentElement;
    if (!(details instanceof HTMLDetailsElement)) return;
    // Once the browser has opened it; `nearest` moves the page only as far as it must, and the
    // element's scroll margins keep it clear of the message box.
    requestAnimationFrame(() => {
      if (details.open) details.scrollIntoView({ block: "nearest" });
    });
  });
}
