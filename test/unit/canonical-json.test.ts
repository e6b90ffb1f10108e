import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, CanonicalJsonError } from '../../src/core/canonical-json.js';

describe('canonical JSON (RFC 8785)', () => {
  it('sorts members by UTF-16 code units at every depth, keeps array order, writes no whitespace', () => {
    // RFC 8785 §3.2.3: the sorting example's keys, in the order the RFC gives as canonical.
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const out = canonicalJson(input);
    const order = Object.keys(JSON.parse(out) as object);
    // JSON.parse keeps '1' first (an integer-like key); compare the text instead.
    expect(out).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    expect(order).toHaveLength(7);
    expect(canonicalJson({ b: [3, { z: 1, a: 2 }], a: { d: null, c: true } })).toBe('{"a":{"c":true,"d":null},"b":[3,{"a":2,"z":1}]}');
  });

  it("serialises numbers as ECMAScript does (the RFC's examples)", () => {
    // RFC 8785 §3.2.2.3 and appendix B.
    const cases: Array<[number, string]> = [
      [0, '0'],
      [-0, '0'],
      [1e21, '1e+21'],
      [1e-7, '1e-7'],
      [333333333.3333333, '333333333.3333333'],
      [1e23, '1e+23'],
      [9007199254740992, '9007199254740992'],
      [4.5, '4.5'],
      [0.002, '0.002'],
      [0.000001, '0.000001'],
      [-5e-324, '-5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
      [295147905179352830000, '295147905179352830000'],
    ];
    for (const [n, text] of cases) expect(canonicalJson(n)).toBe(text);
    expect(canonicalJson({ numbers: [333333333.3333333, 1e30, 4.5, 0.002, 1e-27] })).toBe('{"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27]}');
  });

  it('the RFC §3.2.2 example canonicalises to its published text', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    ) as unknown;
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('is independent of the source formatting and member order', () => {
    const a = JSON.parse('{"x": 1, "y": {"b": [1, 2], "a": "é"}}') as unknown;
    const b = JSON.parse('{\n  "y": {\n    "a": "\\u00e9",\n    "b": [1.0, 2e0]\n  },\n  "x": 1\n}') as unknown;
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    const hash = (v: unknown) => createHash('sha256').update(canonicalJson(v)).digest('hex');
    expect(hash(a)).toBe(hash(b));
  });

  it('refuses what has no JSON form', () => {
    for (const bad of [NaN, Infinity, -Infinity, { a: undefined }, [() => 1], 1n, new Date(0), { n: { m: NaN } }]) {
      expect(() => canonicalJson(bad)).toThrow(CanonicalJsonError);
    }
  });
});
