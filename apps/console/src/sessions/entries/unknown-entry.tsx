import { LongText } from "../../components/long-text.js";
import { formatJson, formatTime } from "../../lib/format.js";
import { type EntryProps, payloadOf } from "./entry-props.js";

/**
 * An entry of a type this console does not know (a newer server's, e.g. guardrail decisions or knowledge citations):
 * its type in words and each field as text, so it reads as well as it can until a view of its own is added.
 */
export function UnknownEntry({ entry }: EntryProps) {
  const fields = payloadOf(entry);
  return (
    <article className="entry other" aria-label={`${entry.type} entry`}>
      <header>
        <strong>{label(entry.type)}</strong> <code className="meta">{entry.type}</code>{" "}
        <time dateTime={entry.createdAt}>{formatTime(entry.createdAt)}</time>
      </header>
      {fields.length > 0 && (
        <dl>
          {fields.map(([key, value]) => (
            <div key={key} className="contents">
              <dt>{key}</dt>
              <dd>
                {typeof value === "string" && !value.includes("\n") && value.length < 200 ? (
                  value
                ) : (
                  <LongText text={formatJson(value)} />
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </article>
  );
}

/** `session.guardrail_decision` → "Guardrail decision". */
function label(type: string): string {
  const name = type.slice(type.indexOf(".") + 1).replace(/[_.]/g, " ");
  return name.charAt(0).toUpperCase() + name.slice(1);
}
