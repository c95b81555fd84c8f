export interface ResponseValidationIssue {
  method: string;
  path: string;
  status: number;
  message: string;
  /** The schema's issues (field paths and messages). */
  issues: { path: (string | number)[]; message: string }[];
}

/** The route a response answered: its operation (`agents.create`), method and path template. */
export interface AnsweredRoute {
  operation: string;
  method: string;
  path: string;
}

/**
 * Checks a success body without changing it; returns the mismatch, if any. `contractValidator` from
 * `@agent-platform/sdk/contract` checks against the contract's Zod schemas.
 */
export type ResponseValidator = (
  route: AnsweredRoute,
  status: number,
  body: unknown,
) => ResponseValidationIssue | undefined;
