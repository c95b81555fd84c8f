import { type FormEvent, useState } from "react";
import { PageHeading } from "../components/page-heading.js";
import { signInFailure, useAuth } from "./session.js";

export function SignInPage() {
  const { signIn } = useAuth();
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(key);
    } catch (failure) {
      setError(signInFailure(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <PageHeading title="Sign in">Agent Platform console</PageHeading>
      <form onSubmit={submit} aria-describedby="sign-in-help">
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "sign-in-error" : undefined}
        />
        <button type="submit" disabled={busy || key.trim() === ""}>
          {busy ? "Checking…" : "Sign in"}
        </button>
        {error && (
          <p id="sign-in-error" role="alert" className="error">
            {error}
          </p>
        )}
      </form>
      <p id="sign-in-help" className="muted">
        The key is kept for this browser tab only (sessionStorage) and sent to this server alone. On a default install
        it was printed by <code>pnpm start</code> and saved to <code>.data/api-key</code>.
      </p>
    </main>
  );
}
