import { keyProblem, validateFields, type FieldProblemCode } from './event-form-builder';
import { parseTeamSize, parseWeight, type EventFormValues } from './event-form-payload';
import { wallToUtc } from './event-form-time';

/** A problem the form finds before sending: the input's path and a message key of `form.errors`. */
export interface FormProblem {
  path: string;
  message: string;
}

const MODEL_ID = /^[a-z0-9][a-z0-9._-]*\/\S+$/i;
const KEY_MESSAGES: Record<FieldProblemCode, string> = {
  required: 'form.errors.key.required',
  too_long: 'form.errors.key.too_long',
  pattern: 'form.errors.key.pattern',
  reserved: 'form.errors.key.reserved',
  duplicate: 'form.errors.key.duplicate',
  label_required: 'form.errors.labelRequired',
  label_too_long: 'form.errors.labelTooLong',
};

/**
 * The checks the server makes that the form can make first (src/events/event-config.ts and the
 * TypeBox schema), in the order the inputs appear. Deadlines in the past are left to the server: a
 * draft may hold any dates, and only publishing needs them ahead.
 */
export function validateValues(v: EventFormValues): FormProblem[] {
  const out: FormProblem[] = [];
  const add = (path: string, message: string) => out.push({ path, message });
  if (!v.name.trim()) add('name', 'form.errors.required');
  else if (v.name.trim().length > 200) add('name', 'form.errors.nameTooLong');
  if (v.description.length > 10_000) add('description', 'form.errors.descriptionTooLong');

  const reg = wallToUtc(v.registration_deadline, v.timeZone);
  const sub = wallToUtc(v.submission_deadline, v.timeZone);
  if (!reg) add('registration_deadline.date', 'form.errors.date');
  if (!sub) add('submission_deadline.date', 'form.errors.date');
  if (reg && sub && Date.parse(sub.iso) < Date.parse(reg.iso)) add('submission_deadline.date', 'form.errors.order');
  if (v.hacking_starts_at.date.trim() !== '') {
    const hack = wallToUtc(v.hacking_starts_at, v.timeZone);
    if (!hack) add('hacking_starts_at.date', 'form.errors.date');
    else if (sub && Date.parse(hack.iso) >= Date.parse(sub.iso)) add('hacking_starts_at.date', 'form.errors.hackingOrder');
  }

  v.tracks.forEach((t, i) => {
    if (!t.name.trim()) add(`tracks.${i}.name`, 'form.errors.required');
    const k = keyProblem(
      t.id.trim(),
      v.tracks.slice(0, i).map((o) => o.id.trim()),
    );
    if (k) add(`tracks.${i}.id`, KEY_MESSAGES[k]);
  });

  if (v.dimensions.length === 0) add('dimensions', 'form.errors.dimensionsMin');
  const seen = new Set<string>();
  v.dimensions.forEach((d, i) => {
    const name = d.name.trim().toLowerCase();
    if (!name) add(`dimensions.${i}.name`, 'form.errors.required');
    else if (seen.has(name)) add(`dimensions.${i}.name`, 'form.errors.duplicate');
    seen.add(name);
    const w = parseWeight(d.weight);
    if (!(w > 0) || !Number.isFinite(w)) add(`dimensions.${i}.weight`, 'form.errors.weight');
  });

  const models = new Set<string>();
  v.models.forEach((m, i) => {
    const id = m.value.trim();
    if (!id) return;
    if (!MODEL_ID.test(id)) add(`models.${i}.value`, 'form.errors.model');
    else if (models.has(id)) add(`models.${i}.value`, 'form.errors.duplicate');
    models.add(id);
  });

  for (const p of validateFields(v.fields)) add(`fields.${p.index}.${p.field}`, KEY_MESSAGES[p.code]);

  const sizes = { min_team_size: parseTeamSize(v.min_team_size), max_team_size: parseTeamSize(v.max_team_size) };
  for (const [key, size] of Object.entries(sizes)) {
    if (size !== null && !(Number.isInteger(size) && size >= 1 && size <= 100)) add(key, 'form.errors.teamSize');
  }
  const { min_team_size: min, max_team_size: max } = sizes;
  if (min !== null && max !== null && Number.isInteger(min) && Number.isInteger(max) && min > max) add('min_team_size', 'form.errors.teamSizeOrder');

  v.co_organizers.forEach((c, i) => {
    const email = c.value.trim();
    if (email && !/^[^\s@]+@[^\s@]+$/.test(email)) add(`co_organizers.${i}.value`, 'form.errors.email');
  });
  // Inputs appear section by section; sort so the first problem is the first invalid input on the page.
  const order = [
    'name',
    'description',
    'registration_deadline',
    'hacking_starts_at',
    'submission_deadline',
    'tracks',
    'dimensions',
    'models',
    'fields',
    'min_team_size',
    'max_team_size',
    'co_organizers',
  ];
  const rank = (p: string) => {
    const [head, row] = p.split('.');
    return order.indexOf(head!) * 1000 + (Number(row) || 0);
  };
  return out
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p.path) - rank(b.p.path) || a.i - b.i)
    .map(({ p }) => p);
}

/** The provider part of a model id, "openai" of "openai/gpt-4o-mini"; null before the slash is typed. */
export function modelProvider(model: string): string | null {
  const i = model.indexOf('/');
  return i > 0 ? model.slice(0, i).trim().toLowerCase() : null;
}
