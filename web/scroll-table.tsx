import type { ComponentChildren } from "preact";
import type { MessageKey } from "../state/messages/index.js";
import { useT } from "./i18n.js";

/**
 * A table that scrolls sideways on a narrow screen, its column headings from the catalogues.
 * The scrolling box is focusable, so that a keyboard can scroll a table wider than a phone.
 */
export function ScrollTable({
  label,
  class: className,
  columns,
  children,
}: {
  label: string;
  class: string;
  columns: readonly MessageKey[];
  children: ComponentChildren;
}) {
  const t = useT();
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={label}>
      <table class={className}>
        <thead>
          <tr>
            {columns.map((k) => (
              <th scope="col" key={k}>
                {t(k)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
