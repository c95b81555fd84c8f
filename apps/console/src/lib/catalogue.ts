import { useQuery } from "@tanstack/react-query";
import { useClient } from "../auth/session.js";

/** The server's model catalogue (`GET /v1/models`): it changes only with the server's configuration. */
export function useModels() {
  const client = useClient();
  return useQuery({
    queryKey: ["models"],
    queryFn: async () => (await client.models.list()).data,
    staleTime: 5 * 60_000,
  });
}

/** The built-in tools (`GET /v1/tools`). */
export function useBuiltinTools() {
  const client = useClient();
  return useQuery({
    queryKey: ["builtin-tools"],
    queryFn: async () => (await client.tools.list()).data,
    staleTime: 5 * 60_000,
  });
}

/** The embedding models knowledge bases and memory stores can use (`GET /v1/embedding-models`). */
export function useEmbeddingModels() {
  const client = useClient();
  return useQuery({
    queryKey: ["embedding-models"],
    queryFn: async () => (await client.models.listEmbedding()).data,
    staleTime: 5 * 60_000,
  });
}
