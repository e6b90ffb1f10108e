import { Type, type TSchema } from 'typebox';
import { ERROR_STATUS, titleOf, type ErrorCode } from '../errors.js';

/** RFC 9457 problem document, as every error response carries it. */
export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    action: Type.Optional(Type.String({ description: 'what to do next, in one sentence (the same as on the `type` page)' })),
    request_id: Type.String({
      description: "the request's id, also sent as the X-Request-Id header: quote it to the operator, whose log lines of the request carry it (reqId)",
    }),
  },
  { additionalProperties: true, $id: undefined },
);

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** One error status of a route: a problem document whose `code` is one of `codes`. */
export interface ProblemResponse {
  description: string;
  content: { [PROBLEM_MEDIA_TYPE]: { schema: TSchema } };
}

/** The problem document of one status, its `code` limited to `codes` (the serializer ignores enum). */
export function problemResponse(codes: readonly ErrorCode[]): ProblemResponse {
  const sorted = [...new Set(codes)].sort();
  const schema = Type.Object({ ...Problem.properties, code: Type.Unsafe<string>({ type: 'string', enum: sorted }) }, { additionalProperties: true });
  return {
    description: sorted.map((c) => `\`${c}\`: ${titleOf(c)}`).join('; '),
    content: { [PROBLEM_MEDIA_TYPE]: { schema } },
  };
}

/** Every code of one status (a route that says only "404" may answer any of them). */
export function codesOfStatus(status: number): ErrorCode[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((c) => ERROR_STATUS[c] === status);
}

/**
 * The error answers of a route, grouped by status: name the codes it can meet (`'event_not_found'`),
 * or a bare status for every code of it. The OpenAPI document lists them per status, and adds the
 * ones every route of its kind can meet (bad key, rate limit, body errors: see docs/openapi.ts).
 */
export function problems(...answers: Array<ErrorCode | number>): Record<number, ProblemResponse> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const a of answers) {
    const codes = typeof a === 'number' ? codesOfStatus(a) : [a];
    const status = typeof a === 'number' ? a : ERROR_STATUS[a];
    byStatus.set(status, [...(byStatus.get(status) ?? []), ...codes]);
  }
  return Object.fromEntries([...byStatus].map(([status, codes]) => [status, problemResponse(codes)]));
}

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
