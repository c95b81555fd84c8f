import { initContract } from "@ts-rest/core";
import { ErrorEnvelopeSchema } from "./errors.js";

type ContractBuilder = ReturnType<typeof initContract>;
export const c: ContractBuilder = initContract();

/** Error responses every operation can return; merged into each route so OpenAPI documents them everywhere. */
export const commonErrorResponses = {
  400: ErrorEnvelopeSchema,
  401: ErrorEnvelopeSchema,
  403: ErrorEnvelopeSchema,
  404: ErrorEnvelopeSchema,
  409: ErrorEnvelopeSchema,
  413: ErrorEnvelopeSchema,
  422: ErrorEnvelopeSchema,
  500: ErrorEnvelopeSchema,
} as const;

export const routerOptions = { commonResponses: commonErrorResponses, strictStatusCodes: true } as const;
