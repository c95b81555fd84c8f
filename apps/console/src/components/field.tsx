import type { ReactNode } from "react";

export type FieldProps = { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

/**
 * A labelled form row of `.form-grid`: its control (given the id and ARIA links), a hint, and the errors found for it
 * (the API's `request.invalid` issues under their field, or a check made before sending).
 */
export function Field({
  label,
  field,
  errors = [],
  hint,
  group = false,
  children,
}: {
  label: string;
  field: string;
  errors?: string[];
  hint?: ReactNode;
  /** Several controls (rows, checkboxes) rather than one: the label names the group instead of a control. */
  group?: boolean;
  children(props: FieldProps): ReactNode;
}) {
  const id = `field-${field}`;
  const describedBy = [errors.length ? `${id}-errors` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ");
  return (
    <>
      {group ? (
        <span className="form-label" id={`${id}-label`}>
          {label}
        </span>
      ) : (
        <label htmlFor={id}>{label}</label>
      )}
      <div
        {...(group
          ? {
              role: "group",
              "aria-labelledby": `${id}-label`,
              id,
              ...(describedBy ? { "aria-describedby": describedBy } : {}),
            }
          : {})}
      >
        {children({
          id,
          ...(errors.length ? { "aria-invalid": true as const } : {}),
          ...(describedBy ? { "aria-describedby": describedBy } : {}),
        })}
        {hint && (
          <span id={`${id}-hint`} className="muted hint">
            {hint}
          </span>
        )}
        {errors.length > 0 && (
          <span id={`${id}-errors`} className="field-error" role="alert">
            {errors.join("; ")}
          </span>
        )}
      </div>
    </>
  );
}
