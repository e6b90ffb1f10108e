import type { Answer, Item } from '../../lib/api';

/** Pure helpers of the public pages (no DOM, no React): tested in logic.test.ts. */

type PublicEvent = Answer<'/events/{id}'>;
export type Track = PublicEvent['tracks'][number];
export type Dimension = PublicEvent['dimensions'][number];
export type FormField = PublicEvent['registration_config']['fields'][number];
export type ResultEntry = Item<'/events/{id}/result'>;

/** The home page's filters: each is one `status=` list of the events API. */
export const STATUS_FILTERS = {
  all: 'open,active,judging,ended',
  open: 'open',
  active: 'active',
  judging: 'judging',
  ended: 'ended',
} as const;
export type StatusFilter = keyof typeof STATUS_FILTERS;

export function isStatusFilter(value: string | null | undefined): value is StatusFilter {
  return value !== null && value !== undefined && Object.prototype.hasOwnProperty.call(STATUS_FILTERS, value);
}

/**
 * A description as paragraphs of lines: blank lines separate paragraphs, single newlines stay line
 * breaks. Rendered as text nodes, never as HTML.
 */
export function paragraphs(text: string | null | undefined): string[][] {
  if (!text) return [];
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split('\n')
        .map((l) => l.trimEnd())
        .filter((l, i, all) => l !== '' || (i > 0 && i < all.length - 1)),
    )
    .filter((p) => p.some((l) => l.trim() !== ''));
}

/** The first `max` characters of a description on one line, cut at a word and marked with "…". */
export function excerpt(text: string | null | undefined, max = 160): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

/** Each dimension with its share of the total weight (0–1); the shares add up to 1. */
export function weightShares(dimensions: readonly Dimension[]): Array<Dimension & { share: number }> {
  const total = dimensions.reduce((sum, d) => sum + (d.weight > 0 ? d.weight : 0), 0);
  return dimensions.map((d) => ({ ...d, share: total > 0 && d.weight > 0 ? d.weight / total : 0 }));
}

/** A value safe inside single quotes in a POSIX shell. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A placeholder answer for a form field, shaped like what its type accepts. */
function sampleAnswer(field: FormField): string | number {
  switch (field.type) {
    case 'url':
      return 'https://example.com';
    case 'email':
      return 'team@example.com';
    case 'number':
      return 1;
    default:
      return '…';
  }
}

/** The registration request body a person would send: team name, first track, required fields. */
export function registrationExample(tracks: readonly Pick<Track, 'id'>[], fields: readonly FormField[]): Record<string, unknown> {
  const body: Record<string, unknown> = { team_name: 'My team' };
  if (tracks.length > 0) body.track_id = tracks[0]!.id;
  const required = fields.filter((f) => f.required);
  if (required.length > 0) body.fields = Object.fromEntries(required.map((f) => [f.key, sampleAnswer(f)]));
  return body;
}

/** The exact curl command that registers a team for an event on this site. */
export function registerCurl(site: string, eventId: string, tracks: readonly Pick<Track, 'id'>[], fields: readonly FormField[]): string {
  const base = site.replace(/\/+$/, '');
  const body = JSON.stringify(registrationExample(tracks, fields));
  return [
    `curl -sS -X POST ${shellQuote(`${base}/api/v1/events/${encodeURIComponent(eventId)}/register`)} \\`,
    `  -H "Authorization: Bearer $HACKATHON_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n');
}

/** The dimension names a ranking scored, in the event's order first, then any other in first-seen order. */
export function dimensionColumns(entries: readonly ResultEntry[], eventDimensions: readonly Dimension[] = []): string[] {
  const seen = new Set<string>();
  for (const e of entries) for (const name of Object.keys(e.scores_by_dimension)) seen.add(name);
  const ordered = eventDimensions.map((d) => d.name).filter((n) => seen.has(n));
  for (const n of seen) if (!ordered.includes(n)) ordered.push(n);
  return ordered;
}

/** The first `n` entries as chart bars (label and score). */
export function chartBars(entries: readonly ResultEntry[], n = 10): Array<{ label: string; score: number; rank: number }> {
  return entries.slice(0, n).map((e) => ({ label: e.project_name, score: e.score, rank: e.rank }));
}

/** The judge groups a ranking has scores from (AI model identifiers, then `human`), in a stable order. */
export function judgeColumns(entries: readonly ResultEntry[]): string[] {
  const seen = new Set<string>();
  for (const e of entries) for (const name of Object.keys(e.scores_by_model)) seen.add(name);
  return [...seen].sort((a, b) => (a === 'human' ? 1 : b === 'human' ? -1 : a.localeCompare(b)));
}
