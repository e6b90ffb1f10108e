import { describe, expect, it } from 'vitest';
import { emptyValues } from './event-form-payload';
import { modelProvider, validateValues } from './event-form-validate';

function valid() {
  const v = emptyValues('Asia/Shanghai');
  v.name = 'Hack';
  v.registration_deadline = { date: '2030-01-01', time: '09:00' };
  v.submission_deadline = { date: '2030-01-08', time: '09:00' };
  return v;
}

describe('validateValues', () => {
  it('accepts a minimal event', () => {
    expect(validateValues(valid())).toEqual([]);
  });

  it('takes team sizes as whole numbers from 1 to 100 (empty: no limit), the smallest not above the largest', () => {
    const v = valid();
    v.min_team_size = '2';
    v.max_team_size = '4';
    expect(validateValues(v)).toEqual([]);
    v.min_team_size = '5';
    expect(validateValues(v)).toEqual([{ path: 'min_team_size', message: 'form.errors.teamSizeOrder' }]);
    v.min_team_size = '1.5';
    v.max_team_size = '101';
    expect(validateValues(v)).toEqual([
      { path: 'min_team_size', message: 'form.errors.teamSize' },
      { path: 'max_team_size', message: 'form.errors.teamSize' },
    ]);
    v.min_team_size = ' ';
    v.max_team_size = '';
    expect(validateValues(v)).toEqual([]);
  });

  it('reports each problem at its input, in page order', () => {
    const v = valid();
    v.name = ' ';
    v.submission_deadline = { date: '2029-12-31', time: '09:00' };
    v.tracks = [
      { id: 'a', name: 'A', prize: '', idEdited: false },
      { id: 'a', name: '', prize: '', idEdited: true },
    ];
    v.dimensions = [
      { name: 'Impact', weight: '0' },
      { name: 'impact', weight: 'x' },
    ];
    v.models = [{ value: 'gpt4' }, { value: '' }];
    v.fields = [{ key: 'repo', label: '', type: 'url', required: true, keyEdited: false }];
    v.co_organizers = [{ value: 'nope' }];
    expect(validateValues(v)).toEqual([
      { path: 'name', message: 'form.errors.required' },
      { path: 'submission_deadline.date', message: 'form.errors.order' },
      { path: 'tracks.1.name', message: 'form.errors.required' },
      { path: 'tracks.1.id', message: 'form.errors.key.duplicate' },
      { path: 'dimensions.0.weight', message: 'form.errors.weight' },
      { path: 'dimensions.1.name', message: 'form.errors.duplicate' },
      { path: 'dimensions.1.weight', message: 'form.errors.weight' },
      { path: 'models.0.value', message: 'form.errors.model' },
      { path: 'fields.0.label', message: 'form.errors.labelRequired' },
      { path: 'co_organizers.0.value', message: 'form.errors.email' },
    ]);
  });

  it('needs both deadlines and a dimension', () => {
    const v = valid();
    v.registration_deadline = { date: '', time: '09:00' };
    v.dimensions = [];
    expect(validateValues(v)).toEqual([
      { path: 'registration_deadline.date', message: 'form.errors.date' },
      { path: 'dimensions', message: 'form.errors.dimensionsMin' },
    ]);
  });
});

describe('modelProvider', () => {
  it('takes the part before the slash', () => {
    expect(modelProvider('OpenAI/gpt-4o')).toBe('openai');
    expect(modelProvider('gpt')).toBeNull();
    expect(modelProvider('/x')).toBeNull();
  });
});
