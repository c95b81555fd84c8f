import { isApiError } from "@agent-platform/sdk";
import { ErrorNote } from "./query-state.js";

/**
 * Under a form's buttons: the `request.invalid` issues no field of the form shows (`other`), and any other error of the
 * call unless the form shows it itself (`shown`: e.g. a version conflict, or a code shown under its field).
 */
export function FormErrors({ error, other, shown = false }: { error: unknown; other: string[]; shown?: boolean }) {
  return (
    <>
      {other.length > 0 && (
        <ul className="error" role="alert">
          {other.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      {error && !isApiError(error, "request.invalid") && !shown ? <ErrorNote error={error} /> : null}
    </>
  );
}
