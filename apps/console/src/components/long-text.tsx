import { useState } from "react";

/** Text longer than this is cut until "show all" is pressed (a page of text, not a megabyte of it). */
export const PREVIEW_CHARS = 2_000;

export function LongText({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > PREVIEW_CHARS;
  return (
    <>
      <pre>{cut ? `${text.slice(0, PREVIEW_CHARS)}…` : text}</pre>
      {cut && (
        <button type="button" onClick={() => setAll(true)}>
          Show all ({text.length.toLocaleString()} characters)
        </button>
      )}
    </>
  );
}
