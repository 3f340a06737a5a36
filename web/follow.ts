import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";

/**
 * The live view follows the run: while the reader has not scrolled away, each update keeps the
 * newest text in view (the card being written, else the end of the answer); scrolling up stops
 * that, and coming back to the end starts it again. When the run ends, its result (the element
 * marked `data-result` in its answer: the winner, the final answer, why it stopped) is brought
 * into view if the reader was following, and offered by a button if not.
 */

/** How close to the end of the page (px) counts as being at the end. */
const AT_END = 64;
/** For this long (ms) after the reader's own wheel, touch or key, the page does not scroll by itself. */
const READER_MS = 400;
/** How long (ms) after the reader's wheel, touch or key a scroll is still theirs (a fling goes on). */
const READER_SCROLL_MS = 1500;
/** The keys that scroll the page. */
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

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
export const resultElement = (answer: Element): Element => answer.querySelector("[data-result]") ?? answer;

/** Where the visible part of the window ends: the message box's top, or the window's bottom. */
function visibleBottom(): number {
  const box = document.querySelector(".composer")?.getBoundingClientRect();
  return box && box.height > 0 ? box.top : innerHeight;
}

/** Whether some of the element is between the top of the window and the message box. */
function inView(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.top < visibleBottom();
}

/** Whether the newest text is in view: the element being written, or the end of the answer. */
function liveInView(answer: Element): boolean {
  const live = liveElement(answer);
  if (live !== answer) return inView(live);
  const end = answer.getBoundingClientRect().bottom;
  return end > 0 && end <= visibleBottom() + AT_END;
}

/**
 * Follows the newest answer (`answerId`, its `<li>` marked `data-answer`) while `running`;
 * `version` changes whenever it does. `paused` (the reader's own turn holds the stage) stops the
 * following without forgetting it.
 */
export function useFollow(answerId: number | undefined, running: boolean, version: unknown, paused: boolean) {
  const [following, setFollowing] = useState(true);
  const [target, setTarget] = useState<JumpTarget>(null);
  /** When the reader last moved the page themselves (wheel, touch, keys, the scroll bar). */
  const readerInput = useRef(0);
  const wasRunning = useRef(false);
  const answer = () => (answerId === undefined ? null : document.querySelector(`[data-answer="${answerId}"]`));

  const scrollTo = (el: Element, block: ScrollLogicalPosition) => {
    el.scrollIntoView({ block, behavior: "instant" });
  };

  useEffect(() => {
    const onInput = (e: Event) => {
      // A key that scrolls, a press on the page's scroll bar (not on a button), a wheel or a swipe.
      const scrolls = e instanceof KeyboardEvent ? SCROLL_KEYS.has(e.key) : e.type !== "mousedown" || e.target === document.documentElement;
      if (scrolls) readerInput.current = Date.now();
    };
    const onScroll = () => {
      // Only the reader's own scrolling decides: not the page's, nor a page that grew or shrank.
      if (Date.now() - readerInput.current > READER_SCROLL_MS) return;
      const a = answer();
      // Following while at the end, or while the text being written is in view.
      const follows = atEnd() || (a !== null && liveInView(a));
      setFollowing(follows);
      // A target the reader brought into view needs no button any more.
      setTarget((t) => ((t === "result" && a && inView(resultElement(a))) || (t === "live" && follows) ? null : t));
    };
    const inputs = ["wheel", "touchmove", "keydown", "mousedown"] as const;
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
    if (!a || paused) return;
    if (running) {
      wasRunning.current = true;
      // Not while the reader is moving the page: their scroll decides whether the page follows.
      if (following && Date.now() - readerInput.current > READER_MS) scrollTo(liveElement(a), "end");
      setTarget(following ? null : "live");
      return;
    }
    if (!wasRunning.current) return;
    // The run has just ended: its result in view, or a button to it.
    wasRunning.current = false;
    if (following) scrollTo(resultElement(a), "start");
    setTarget(following || inView(resultElement(a)) ? null : "result");
  }, [answerId, running, version, paused, following]);

  /** Brings the target into view; the live text is followed again from there. */
  const jump = () => {
    const a = answer();
    if (!a) return;
    if (target === "live") {
      setFollowing(true);
      scrollTo(liveElement(a), "end");
    } else scrollTo(resultElement(a), "start");
    setTarget(null);
  };
  return { target, jump };
}
