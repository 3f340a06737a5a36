import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";

/**
 * The live view follows the run: while the reader has not scrolled away, each update keeps the
 * newest text in view (the bottom of the card being written, else the end of the answer);
 * scrolling away stops that, and coming back to it starts it again. When the run ends, its result
 * (the element marked `data-result` in its answer: the winner, the final answer, why it stopped)
 * is brought into view if the reader was following, and offered by a button if not.
 */

/** How close to the end of the page (px) counts as being at the end. */
const AT_END = 64;
/** The gap (px) kept between an ended answer's last line and the message box, or the window's top. */
const END_GAP = 8;
/** For this long (ms) after the reader's own wheel, touch or key, the page does not scroll by itself. */
const READER_MS = 400;
/** How long (ms) after the reader's wheel, touch or key a scroll is still theirs (a fling goes on). */
const READER_SCROLL_MS = 1500;
/** The keys that scroll the page (or, Tab, move the focus and with it the page), outside a field. */
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " ", "Tab"]);
/** Where those keys move a caret or press a button instead (Tab excepted). */
const KEY_TAKERS = "input, textarea, select, button, [contenteditable]";

/** Whether the page is scrolled to (about) its end. */
const atEnd = () => innerHeight + scrollY >= document.documentElement.scrollHeight - AT_END;

/** What the reader can jump to: the live text while the run goes on, or the ended run's result. */
export type JumpTarget = "live" | "result" | null;

/** The newest text of the answer: the last element being written, else the answer itself. */
function liveElement(answer: Element): Element {
  const busy = answer.querySelectorAll('[aria-busy="true"]');
  return busy[busy.length - 1] ?? answer;
}

/** The answer's result, or the answer itself when its view marks none. */
const resultElement = (answer: Element): Element => answer.querySelector("[data-result]") ?? answer;

/** Where the visible part of the window ends: the message box's top, or the window's bottom. */
function visibleBottom(): number {
  const box = document.querySelector(".composer")?.getBoundingClientRect();
  return box && box.height > 0 ? box.top : innerHeight;
}

/**
 * Whether the element's bottom edge (where its newest text is) is between the top of the window
 * and the message box, give or take `slack` px: the reader who is near it still follows, but the
 * page scrolls until the text is wholly above the box.
 */
function bottomInView(el: Element, slack = AT_END): boolean {
  const end = el.getBoundingClientRect().bottom;
  return end > 0 && end <= visibleBottom() + slack;
}

/** Whether the element begins between the top of the window and the message box. */
function topInView(el: Element): boolean {
  const top = el.getBoundingClientRect().top;
  return top >= 0 && top < visibleBottom() - AT_END / 2;
}

/**
 * Brings the ended answer's last line above the message box (what came last, the cost or the
 * follow-ups, may have pushed it under), as far as that keeps the result's start in view.
 */
function showEnd(answer: Element, result: Element): void {
  const under = answer.getBoundingClientRect().bottom + END_GAP - visibleBottom();
  const room = result.getBoundingClientRect().top - END_GAP;
  if (under > 0) scrollBy({ top: Math.min(under, room), behavior: "instant" });
}

/** Whether the reader's input moves the page: a wheel or swipe, the scroll bar, a scrolling key outside a field. */
function readerMoves(e: Event): boolean {
  if (e instanceof KeyboardEvent) return SCROLL_KEYS.has(e.key) && (e.key === "Tab" || !(e.target instanceof Element && e.target.closest(KEY_TAKERS)));
  // A press on the page's scroll bar lands on the document itself, not on anything in it.
  return e.type !== "mousedown" || e.target === document.documentElement;
}

/**
 * Follows the newest answer (`answerId`, its `<li>` marked `data-answer`) while `running`;
 * `version` changes whenever it does. `paused` (the reader's own turn holds the stage) stops the
 * following, and the buttons, without forgetting whether the reader follows.
 */
export function useFollow(answerId: number | undefined, running: boolean, version: unknown, paused: boolean) {
  const [following, setFollowing] = useState(true);
  const [target, setTarget] = useState<JumpTarget>(null);
  /** When the reader last moved the page themselves, and whether they hold the scroll bar now. */
  const reader = useRef({ at: 0, holding: false });
  const wasRunning = useRef(false);
  const answer = () => (answerId === undefined ? null : document.querySelector(`[data-answer="${answerId}"]`));
  const scrollTo = (el: Element, block: ScrollLogicalPosition) => el.scrollIntoView({ block, behavior: "instant" });

  useEffect(() => {
    const onInput = (e: Event) => {
      if (e.type === "mouseup") reader.current.holding = false;
      else if (readerMoves(e)) reader.current = { at: Date.now(), holding: e.type === "mousedown" };
    };
    const onScroll = () => {
      // Only the reader's own scrolling decides: not the page's, nor a page that grew or shrank.
      if (!reader.current.holding && Date.now() - reader.current.at > READER_SCROLL_MS) return;
      const a = answer();
      // Following while at the end, or while the newest text is in view.
      const follows = atEnd() || (a !== null && bottomInView(liveElement(a)));
      setFollowing(follows);
      // A target the reader brought into view needs no button any more.
      setTarget((t) => ((t === "result" && a && topInView(resultElement(a))) || (t === "live" && follows) ? null : t));
    };
    const inputs = ["wheel", "touchmove", "keydown", "mousedown", "mouseup"] as const;
    addEventListener("scroll", onScroll, { passive: true });
    for (const name of inputs) addEventListener(name, onInput, { passive: true });
    return () => {
      removeEventListener("scroll", onScroll);
      for (const name of inputs) removeEventListener(name, onInput);
    };
  }, [answerId]);

  // A new run: the reader who sent it is following it.
  useEffect(() => {
    if (answerId === undefined) return;
    setFollowing(true);
    setTarget(null);
  }, [answerId]);

  useLayoutEffect(() => {
    const a = answer();
    if (!a) return;
    if (paused) return setTarget(null);
    if (running) {
      wasRunning.current = true;
      // Not while the reader is moving the page: their scroll decides whether the page follows.
      const readerBusy = reader.current.holding || Date.now() - reader.current.at < READER_MS;
      if (following && !readerBusy && !bottomInView(liveElement(a), 0)) scrollTo(liveElement(a), "end");
      setTarget(following ? null : "live");
      return;
    }
    if (!wasRunning.current) return;
    // The run has just ended: its result in view (unless it already is), or a button to it.
    wasRunning.current = false;
    const result = resultElement(a);
    if (following && !topInView(result)) scrollTo(result, "start");
    // Whether it is in view, not whether it was meant to be: the button whenever it ended out of
    // view, also when what came last (the title, the cost) moved the page once it had been scrolled.
    const check = () => {
      if (following && topInView(result)) showEnd(a, result);
      setTarget((t) => (topInView(result) ? (t === "result" ? null : t) : "result"));
    };
    check();
    requestAnimationFrame(() => requestAnimationFrame(check));
  }, [answerId, running, version, paused, following]);

  /** Brings the target into view (the live text is followed again from there) and the focus to the result. */
  const jump = () => {
    const a = answer();
    if (!a) return;
    if (target === "live") {
      setFollowing(true);
      scrollTo(liveElement(a), "end");
      document.querySelector<HTMLElement>("#message")?.focus({ preventScroll: true });
    } else {
      const result = resultElement(a) as HTMLElement;
      scrollTo(result, "start");
      // The button goes away: the focus goes to what it led to, not to the page's start.
      if (!result.hasAttribute("tabindex")) result.setAttribute("tabindex", "-1");
      result.focus({ preventScroll: true });
    }
    setTarget(null);
  };
  return { target, jump };
}
