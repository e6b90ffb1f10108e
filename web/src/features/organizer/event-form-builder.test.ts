import { describe, expect, it } from 'vitest';
import {
  addField,
  keyForLabel,
  keyProblem,
  moveField,
  newField,
  relabel,
  removeField,
  slugify,
  uniqueKey,
  validateFields,
  type BuilderField,
} from './event-form-builder';

const field = (key: string, label = key, keyEdited = false): BuilderField => ({ key, label, type: 'text', required: false, keyEdited });

describe('slugs', () => {
  it('derives a key from a label', () => {
    expect(slugify('Repository URL')).toBe('repository_url');
    expect(slugify('  Équipe — Café! ')).toBe('equipe_cafe');
    expect(slugify('Developer tools', '-')).toBe('developer-tools');
    expect(slugify('团队名称')).toBe('');
    expect(slugify('a'.repeat(80))).toHaveLength(64);
  });

  it('makes keys unique and falls back for labels without latin letters', () => {
    expect(uniqueKey('repo', ['repo', 'repo_2'])).toBe('repo_3');
    expect(uniqueKey('repo', [])).toBe('repo');
    expect(keyForLabel('团队', ['field_1'], 'field_1')).toBe('field_1_2');
    expect(keyForLabel('Tools', ['tools'], 'track-1', '-')).toBe('tools-2');
  });
});

describe('rows', () => {
  it('adds a blank text field with a fresh key', () => {
    const fields = addField([field('field_1')]);
    expect(fields).toHaveLength(2);
    expect(fields[1]).toEqual({ key: 'field_2', label: '', type: 'text', required: false, keyEdited: false });
    expect(newField([field('field_1'), field('field_2')]).key).toBe('field_3');
  });

  it('moves a row up and down, and ignores moves past the ends', () => {
    const rows = ['a', 'b', 'c'];
    expect(moveField(rows, 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveField(rows, 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveField(rows, 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveField(rows, 2, 1)).toEqual(['a', 'b', 'c']);
    expect(rows).toEqual(['a', 'b', 'c']);
  });

  it('removes a row', () => {
    expect(removeField(['a', 'b', 'c'], 1)).toEqual(['a', 'c']);
    expect(removeField(['a'], 5)).toEqual(['a']);
  });

  it('rewrites the key from the label until the key is edited', () => {
    const fields = [field('repo'), field('field_2', '')];
    expect(relabel(fields, 1, 'Repo')[1]!.key).toBe('repo_2');
    expect(relabel(fields, 1, 'Demo video')[1]).toMatchObject({ key: 'demo_video', label: 'Demo video' });
    expect(relabel([field('mine', 'x', true)], 0, 'Other')[0]).toMatchObject({ key: 'mine', label: 'Other' });
  });
});

describe('validateFields', () => {
  it('accepts good fields', () => {
    expect(validateFields([field('repo', 'Repository'), field('team.size', 'Size')])).toEqual([]);
  });

  it('reports required labels, bad and duplicate keys on the right row', () => {
    expect(
      validateFields([
        field('repo', ' '),
        field('repo', 'Again'),
        field('has space', 'X'),
        field('', 'Y'),
        field('__proto__', 'Z'),
        field('k'.repeat(65), 'L'),
      ]),
    ).toEqual([
      { index: 0, field: 'label', code: 'label_required' },
      { index: 1, field: 'key', code: 'duplicate' },
      { index: 2, field: 'key', code: 'pattern' },
      { index: 3, field: 'key', code: 'required' },
      { index: 4, field: 'key', code: 'reserved' },
      { index: 5, field: 'key', code: 'too_long' },
    ]);
    expect(validateFields([field('a', 'x'.repeat(201))])).toEqual([{ index: 0, field: 'label', code: 'label_too_long' }]);
    expect(keyProblem('ok', ['other'])).toBeNull();
  });
});
