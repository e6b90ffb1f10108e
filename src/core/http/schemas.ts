import { Type } from 'typebox';

/** RFC 9457 problem document, as every error response carries it. */
export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { additionalProperties: true, $id: undefined },
);

/** The error statuses a route may answer with, each a problem document. */
export function problems(...statuses: number[]): Record<number, typeof Problem> {
  return Object.fromEntries(statuses.map((s) => [s, Problem]));
}

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
