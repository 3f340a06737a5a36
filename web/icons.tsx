/**
 * The page's icons, drawn as SVG so that they look the same everywhere (emoji need a font the
 * reader may not have, and then show as empty boxes). Decorative: the words beside them say it.
 */

/** Each icon's path, on a 24×24 grid, filled or stroked as `STROKED` says. */
const PATHS = {
  mic: "M12 15a3 3 0 0 0 3-3V6a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-2.1A7 7 0 0 0 19 12h-2z",
  check: "M5 12.5l4.5 4.5L19 7.5",
  circle: "M12 4.5a7.5 7.5 0 1 0 0 15a7.5 7.5 0 1 0 0-15z",
  stop: "M7 7h10v10H7z",
  crown: "M3 8l4.5 4L12 5l4.5 7L21 8l-2 10H5L3 8z",
  play: "M8 5v14l11-7z",
  pause: "M7 5h4v14H7zM13 5h4v14h-4z",
  down: "M12 5v14M6 13l6 6 6-6",
  logo: "M4 5h10a2 2 0 0 1 2 2v5a2 2 0 0 1-2 2H9l-4 3v-3H4a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2zm16 4a2 2 0 0 1 2 2v5a2 2 0 0 1-2 2h-1v3l-4-3h-4",
} as const;

/** The icons drawn with a line rather than filled. */
const STROKED: ReadonlySet<IconName> = new Set(["check", "circle", "down", "logo"]);

/** An icon's name. */
export type IconName = keyof typeof PATHS;

/** An icon at the text's size, in its colour. */
export function Icon({ name, size = "1em" }: { name: IconName; size?: string }) {
  const stroked = STROKED.has(name);
  return (
    <svg
      class={`icon icon-${name}`}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      fill={stroked ? "none" : "currentColor"}
      stroke={stroked ? "currentColor" : "none"}
      stroke-width={stroked ? 2 : undefined}
      stroke-linecap="round"
      stroke-linejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
