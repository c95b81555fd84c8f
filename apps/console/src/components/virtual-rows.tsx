import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";

/** Lists up to this long are rendered whole (every row findable with Ctrl+F); longer ones are virtualised. */
const PLAIN_ROWS = 200;

/**
 * A table body whose rows are in the page only while in view (and a screen around), spaced by empty rows above and
 * below, so a list paged to thousands of items scrolls like a short one and keeps real table semantics. Rows are
 * measured once shown (their height varies with the content and the phone layout).
 */
export function VirtualTbody<T>({
  items,
  columns,
  keyOf,
  row,
}: {
  items: readonly T[];
  columns: number;
  keyOf(item: T): string;
  row(item: T, props: { ref?: (el: HTMLTableRowElement | null) => void; "data-index": number }): ReactNode;
}) {
  if (items.length <= PLAIN_ROWS) {
    return <tbody>{items.map((item, index) => row(item, { "data-index": index }))}</tbody>;
  }
  return <Virtualised items={items} columns={columns} keyOf={keyOf} row={row} />;
}

function Virtualised<T>({
  items,
  columns,
  keyOf,
  row,
}: {
  items: readonly T[];
  columns: number;
  keyOf(item: T): string;
  row(item: T, props: { ref?: (el: HTMLTableRowElement | null) => void; "data-index": number }): ReactNode;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const top = body.current ? body.current.getBoundingClientRect().top + window.scrollY : 0;
    setMargin(top);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => 44,
    overscan: 12,
    scrollMargin: margin,
    getItemKey: (index) => keyOf(items[index]!),
  });
  const visible = virtualizer.getVirtualItems();
  const before = visible.length ? visible[0]!.start - margin : 0;
  const after = visible.length ? virtualizer.getTotalSize() - (visible.at(-1)!.end - margin) : 0;
  return (
    <tbody ref={body}>
      {before > 0 && <Spacer height={before} columns={columns} />}
      {visible.map((item) => row(items[item.index]!, { ref: virtualizer.measureElement, "data-index": item.index }))}
      {after > 0 && <Spacer height={after} columns={columns} />}
    </tbody>
  );
}

function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr className="spacer">
      <td colSpan={columns} style={{ height }} />
    </tr>
  );
}
