import type { AgentPlatform } from "@agent-platform/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useClient } from "../auth/session.js";

/** A write on the session (events, rename, archive); the session record and lists are read again after it. */
export function useSessionAction(sessionId: string) {
  const client = useClient();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (action: (client: AgentPlatform) => PromiseLike<unknown>) => Promise.resolve(action(client)),
    onSettled: () => {
      void queries.invalidateQueries({ queryKey: ["session", sessionId] });
      void queries.invalidateQueries({ queryKey: ["sessions"] });
    },
  });
}
