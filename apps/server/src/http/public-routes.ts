/**
 * Links signed by the platform (skill files, artifacts) are served under this prefix without an API key; each area
 * mounts its own downloads below it (see app.ts).
 */
export const PUBLIC_PREFIX = "/v1/files";
