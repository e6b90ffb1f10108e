import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { fieldTable, limitsText, shapeLine, shapeText, typeText } from '../../src/agents/schema-text.js';

describe('schema text for the agent material', () => {
  const Body = Type.Object(
    {
      team_name: Type.String({ minLength: 1, maxLength: 80 }),
      size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'people' })),
      limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
      answers: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String({ maxLength: 2000 }), Type.Number()]), { maxProperties: 50 })),
      tags: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 5 })),
      tracks: Type.Optional(Type.Array(Type.Object({ id: Type.String({ maxLength: 64 }), prize: Type.Optional(Type.String()) }), { maxItems: 50 })),
      config: Type.Optional(Type.Object({ open: Type.Optional(Type.Boolean()) })),
    },
    { additionalProperties: false },
  );

  it('renders every property with its type, whether it is required, its limits and notes', () => {
    expect(fieldTable(Body, { team_name: 'unique per event' }).split('\n')).toEqual([
      '| field | type | required | limits | notes |',
      '|---|---|---|---|---|',
      '| `team_name` | string | yes | 1–80 characters | unique per event |',
      '| `size` | integer | no | 1–100 | people |',
      '| `limit` | integer | no | 1–1000; default 100 | – |',
      '| `answers` | object (key → string or number) | no | at most 50 entries; each value at most 2000 characters | – |',
      '| `tags` | array of string | no | at most 5 items; each at most 20 characters | – |',
      '| `tracks` | array of object {id, prize?} | no | at most 50 items | – |',
      '| `tracks[].id` | string | yes | at most 64 characters | – |',
      '| `tracks[].prize` | string | no | – | – |',
      '| `config` | object {open?} | no | – | – |',
      '| `config.open` | boolean | no | – | – |',
    ]);
  });

  it('takes the object member of a nullable body', () => {
    const Decision = Type.Union([Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) }), Type.Null()]);
    expect(fieldTable(Decision).split('\n')[2]).toBe('| `reason` | string | no | at most 1000 characters | – |');
  });

  it('describes types, limits and shapes', () => {
    expect(typeText(Type.Union([Type.Literal('a'), Type.Literal('b')]))).toBe('"a" or "b"');
    expect(limitsText(Type.Number({ exclusiveMinimum: 0, maximum: 5 }))).toBe('at most 5; greater than 0');
    expect(limitsText(Type.String({ pattern: '^[a-z]+$' }))).toBe('pattern `^[a-z]+$`');
    expect(shapeText(Type.Object({ id: Type.String(), note: Type.Optional(Type.Union([Type.String(), Type.Null()])), list: Type.Array(Type.Integer()) }))).toBe(
      '{\n  "id": string,\n  "note"?: string | null,\n  "list": [integer, …]\n}',
    );
    expect(shapeLine(Type.Object({ id: Type.String(), note: Type.Optional(Type.Union([Type.String(), Type.Null()])), list: Type.Array(Type.Integer()) }))).toBe(
      '{id: string, note?: string | null, list: [integer]}',
    );
  });
});
