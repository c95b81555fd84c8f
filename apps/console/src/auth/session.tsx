import { AgentPlatform, isApiError, type PlatformContext } from "@agent-platform/sdk";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { forgetKey, readStoredKey, storeKey } from "./key-store.js";

export interface SignedIn {
  client: AgentPlatform;
  context: PlatformContext;
  isAdmin: boolean;
  signOut(): void;
}

interface AuthState {
  signedIn: SignedIn | undefined;
  /** True while a stored key is checked on load. */
  checking: boolean;
  signIn(apiKey: string): Promise<void>;
}

const AuthContext = createContext<AuthState | undefined>(undefined);

function clientFor(apiKey: string): AgentPlatform {
  return new AgentPlatform({ apiKey, baseUrl: window.location.origin, maxRetries: 1 });
}

/** Why a key was not accepted, in words a person can act on. */
export function signInFailure(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 401) return "This API key was refused: it is unknown, revoked or mistyped.";
    if (error.status === 403) return "This API key may not read its project.";
    return `The server answered ${error.status}: ${error.message}`;
  }
  return `The server could not be reached: ${(error as Error).message}`;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [signedIn, setSignedIn] = useState<SignedIn | undefined>();
  const [checking, setChecking] = useState(() => readStoredKey() !== undefined);

  const signOut = useCallback(() => {
    forgetKey();
    setSignedIn(undefined);
  }, []);

  const signIn = useCallback(
    async (apiKey: string) => {
      const client = clientFor(apiKey.trim());
      const context = await client.context();
      storeKey(apiKey.trim());
      setSignedIn({ client, context, isAdmin: context.apiKey.role === "admin", signOut });
    },
    [signOut],
  );

  useEffect(() => {
    const stored = readStoredKey();
    if (!stored) return;
    signIn(stored)
      .catch(() => forgetKey())
      .finally(() => setChecking(false));
  }, [signIn]);

  const value = useMemo(() => ({ signedIn, checking, signIn }), [signedIn, checking, signIn]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error("useAuth outside AuthProvider");
  return state;
}

/** The signed-in client; pages under the signed-in layout only. */
export function useSignedIn(): SignedIn {
  const { signedIn } = useAuth();
  if (!signedIn) throw new Error("useSignedIn while signed out");
  return signedIn;
}

export function useClient(): AgentPlatform {
  return useSignedIn().client;
}
