/**
 * The registration form builder's pure logic: the field types the API takes, keys derived from labels
 * (a slug, until the organizer edits the key), add / move / remove, and the checks the server makes
 * (src/events/event-config.ts), so most mistakes show before saving.
 */

export const FIELD_TYPES = ['text', 'textarea', 'url', 'email', 'number'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface BuilderField {
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  /** The key was typed by the organizer: the label no longer rewrites it. */
  keyEdited: boolean;
}

export const KEY_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const KEY_MAX = 64;
export const LABEL_MAX = 200;
export const MAX_FIELDS = 50;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** "Repository URL" -> "repository_url"; accents dropped, other scripts give "" (the caller falls back). */
export function slugify(text: string, separator: '_' | '-' = '_'): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(new RegExp(`^\\${separator}+|\\${separator}+$`, 'g'), '')
    .slice(0, KEY_MAX)
    .replace(new RegExp(`\\${separator}+$`), '');
}

/** `base`, or `base_2`, `base_3`… whichever is not in `taken`. */
export function uniqueKey(base: string, taken: Iterable<string>, separator: '_' | '-' = '_'): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `${separator}${n}`;
    const candidate = `${base.slice(0, KEY_MAX - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** The key a label gives, unique among the other rows; `fallback` when the label has no latin letters. */
export function keyForLabel(label: string, otherKeys: Iterable<string>, fallback: string, separator: '_' | '-' = '_'): string {
  return uniqueKey(slugify(label, separator) || fallback, otherKeys, separator);
}

export function newField(fields: readonly BuilderField[]): BuilderField {
  return {
    key: uniqueKey(
      `field_${fields.length + 1}`,
      fields.map((f) => f.key),
    ),
    label: '',
    type: 'text',
    required: false,
    keyEdited: false,
  };
}

export function addField(fields: readonly BuilderField[]): BuilderField[] {
  return fields.length >= MAX_FIELDS ? [...fields] : [...fields, newField(fields)];
}

/** Moves row `index` by `delta` (-1 up, +1 down); out of range is no change. */
export function moveField<T>(rows: readonly T[], index: number, delta: number): T[] {
  const to = index + delta;
  if (index < 0 || index >= rows.length || to < 0 || to >= rows.length) return [...rows];
  const out = [...rows];
  const [row] = out.splice(index, 1);
  out.splice(to, 0, row!);
  return out;
}

export function removeField<T>(rows: readonly T[], index: number): T[] {
  return rows.filter((_, i) => i !== index);
}

/** The label changed: rewrite the key from it unless the organizer owns the key. */
export function relabel(fields: readonly BuilderField[], index: number, label: string): BuilderField[] {
  return fields.map((f, i) => {
    if (i !== index) return f;
    if (f.keyEdited) return { ...f, label };
    const others = fields.filter((_, j) => j !== index).map((o) => o.key);
    return { ...f, label, key: keyForLabel(label, others, `field_${index + 1}`) };
  });
}

export type KeyProblem = 'required' | 'too_long' | 'pattern' | 'reserved' | 'duplicate';
export type FieldProblemCode = KeyProblem | 'label_required' | 'label_too_long';

/** What is wrong with one key, given the keys before it (a duplicate is reported on the later row). */
export function keyProblem(key: string, earlier: Iterable<string>): KeyProblem | null {
  if (!key) return 'required';
  if (key.length > KEY_MAX) return 'too_long';
  if (!KEY_PATTERN.test(key)) return 'pattern';
  if (RESERVED.has(key)) return 'reserved';
  for (const k of earlier) if (k === key) return 'duplicate';
  return null;
}

export interface BuilderProblem {
  index: number;
  field: 'key' | 'label';
  code: FieldProblemCode;
}

/** Every problem of the form's fields: keys (required, pattern, reserved, unique), labels (required, length). */
export function validateFields(fields: readonly Pick<BuilderField, 'key' | 'label'>[]): BuilderProblem[] {
  const problems: BuilderProblem[] = [];
  fields.forEach((f, i) => {
    const label = f.label.trim();
    if (!label) problems.push({ index: i, field: 'label', code: 'label_required' });
    else if (label.length > LABEL_MAX) problems.push({ index: i, field: 'label', code: 'label_too_long' });
    const k = keyProblem(
      f.key,
      fields.slice(0, i).map((o) => o.key),
    );
    if (k) problems.push({ index: i, field: 'key', code: k });
  });
  return problems;
}
