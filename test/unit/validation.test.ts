import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { ajvToFieldErrors, nulPath, validatorCompiler } from '../../src/core/http/validation.js';

describe('nulPath', () => {
  it('is null when no string holds a NUL character', () => {
    expect(nulPath({ a: 'x', b: [1, 'y', null, { c: true }] })).toBeNull();
    expect(nulPath('plain')).toBeNull();
    expect(nulPath(undefined)).toBeNull();
  });

  it('points at the value or key holding a NUL, as a JSON pointer', () => {
    expect(nulPath('a\u0000')).toBe('');
    expect(nulPath({ team_name: 'a\u0000b' })).toBe('/team_name');
    expect(nulPath({ fields: { repo: ['ok', 'x\u0000'] } })).toBe('/fields/repo/1');
    expect(nulPath({ fields: { 'k\u0000': 'v' } })).toBe('/fields/k\u0000');
    expect(nulPath({ 'a/b~c': '\u0000' })).toBe('/a~1b~0c');
  });

  it('copes with deep nesting and cycles', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulPath(deep)).toBe('/0'.repeat(100_000));
    const cyclic: Record<string, unknown> = { a: 'x' };
    cyclic.self = cyclic;
    expect(nulPath(cyclic)).toBeNull();
  });
});

describe('ajvToFieldErrors on closed sets', () => {
  const compile = (schema: object) =>
    validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/' }) as unknown as ((d: unknown) => boolean) & { errors: never };
  const errorsOf = (schema: object, data: unknown) => {
    const v = compile(schema);
    expect(v(data)).toBe(false);
    return ajvToFieldErrors(v.errors, 'body');
  };

  it('lists the values of a union of constants once, for a wrong string or a wrong type', () => {
    const schema = Type.Object({ status: Type.Union([Type.Literal('draft'), Type.Literal('open')]) });
    expect(errorsOf(schema, { status: 'recruitingg' })).toEqual([{ field: 'status', message: 'must be one of: draft, open' }]);
    expect(errorsOf(schema, { status: 5 })).toEqual([{ field: 'status', message: 'must be one of: draft, open' }]);
  });

  it('lists enum values, a single constant and a nullable constant', () => {
    expect(errorsOf({ type: 'object', properties: { f: { enum: ['a', 'b'] } } }, { f: 'c' })).toEqual([{ field: 'f', message: 'must be one of: a, b' }]);
    expect(errorsOf(Type.Object({ f: Type.Literal('failed') }), { f: 'x' })).toEqual([{ field: 'f', message: 'must be failed' }]);
    expect(errorsOf(Type.Object({ f: Type.Union([Type.Literal('x'), Type.Null()]) }), { f: 'y' })).toEqual([
      { field: 'f', message: 'must be one of: x, null' },
    ]);
  });

  it('does not keep the rejected value in the errors it hands on', () => {
    const v = compile(Type.Object({ password: Type.String({ maxLength: 3 }) }));
    expect(v({ password: 'hunter2-secret' })).toBe(false);
    expect(JSON.stringify(v.errors)).not.toContain('hunter2');
  });

  it('leaves unions of other shapes to their branch errors', () => {
    const errors = errorsOf(Type.Object({ f: Type.Union([Type.String({ maxLength: 1 }), Type.Number()]) }), { f: 'long' });
    expect(errors.map((e) => e.message)).not.toContain(expect.stringMatching(/one of/));
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe('ajvToFieldErrors teaching what to send', () => {
  const errorsOf = (schema: object, data: unknown) => {
    const v = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/' }) as unknown as ((d: unknown) => boolean) & { errors: never };
    expect(v(data)).toBe(false);
    return ajvToFieldErrors(v.errors, 'body');
  };
  const submit = Type.Object(
    { project_name: Type.Optional(Type.String()), name: Type.Optional(Type.String()), github_url: Type.String(), description: Type.Optional(Type.String()) },
    { additionalProperties: false, anyOf: [{ required: ['project_name'] }, { required: ['name'] }], requiredMessage: 'submit replaces the whole project' },
  );
  const register = Type.Object(
    {
      team_name: Type.String(),
      fields: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()]))),
    },
    { additionalProperties: false },
  );

  it('says that form answers sent at the top level go under fields', () => {
    expect(errorsOf(register, { team_name: 'x', team_size: 3 })).toEqual([
      { field: 'team_size', message: 'is not a known property; answers to the event\'s form go under `fields`, e.g. {"fields": {"team_size": …}}' },
    ]);
  });

  it('suggests the name meant for a near miss (synonym, case or a typo)', () => {
    expect(errorsOf(submit, { project_name: 'x', github_url: 'u', title: 't', repo_url: 'u', Description: 'd', githb_url: 'u' })).toEqual([
      { field: 'title', message: 'is not a known property; did you mean `project_name`?' },
      { field: 'repo_url', message: 'is not a known property; did you mean `github_url`?' },
      { field: 'Description', message: 'is not a known property; did you mean `description`?' },
      { field: 'githb_url', message: 'is not a known property; did you mean `github_url`?' },
    ]);
    expect(errorsOf(register, { team_name: 'x', name: 'y' })).toEqual([{ field: 'name', message: 'is not a known property; did you mean `team_name`?' }]);
  });

  it('collapses a failed union of types for one field into one sentence', () => {
    expect(errorsOf(register, { team_name: 'x', fields: { a: true } })).toEqual([{ field: 'fields.a', message: 'must be a string, a number or null' }]);
  });

  it('reports a field missing with its alias once, and says why a partial update fails', () => {
    expect(errorsOf(submit, { description: 'only the change' })).toEqual([
      { field: 'project_name', message: 'is required (send project_name or name): submit replaces the whole project' },
      { field: 'github_url', message: 'is required: submit replaces the whole project' },
    ]);
    expect(errorsOf(submit, { name: 'x' })).toEqual([{ field: 'github_url', message: 'is required: submit replaces the whole project' }]);
  });

  it('lets the errors inside an object speak when an optional body (object or null) is wrong inside', () => {
    const body = Type.Union([Type.Object({ reason: Type.String() }, { additionalProperties: false }), Type.Null()]);
    expect(errorsOf(body, { reason: 5 })).toEqual([{ field: 'reason', message: 'must be string' }]);
    expect(errorsOf(body, 5)).toEqual([{ field: 'body', message: 'must be an object or null' }]);
  });
});
