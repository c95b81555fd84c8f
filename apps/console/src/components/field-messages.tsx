/** Errors shown under the field they concern (an API field error, or a check made before sending). */
export function FieldMessages({ messages }: { messages: readonly string[] | undefined }) {
  return (
    <>
      {(messages ?? []).map((m) => (
        <span key={m} className="field-error" role="alert">
          {m}
        </span>
      ))}
    </>
  );
}
