import { PageHeading } from "./page-heading.js";
import { ErrorNote } from "./query-state.js";

/** A page's heading with a badge and a Delete button that asks first (`question`), and the deletion's error. */
export function DeletableHeader({
  title,
  badge,
  question,
  remove,
}: {
  title: string;
  badge: string;
  question: string;
  remove: { mutate(): void; isPending: boolean; error: unknown };
}) {
  return (
    <header className="page-header">
      <PageHeading title={title} />
      <span className="badge">{badge}</span>
      <span className="spacer" />
      <button
        type="button"
        className="danger"
        disabled={remove.isPending}
        onClick={() => {
          if (window.confirm(question)) remove.mutate();
        }}
      >
        Delete
      </button>
      <ErrorNote error={remove.error} />
    </header>
  );
}
