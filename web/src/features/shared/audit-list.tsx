import { useT } from '../../i18n';
import type { Item } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { EmptyState } from '../../ui/states';
import { messages } from './audit-messages';
import './audit.css';

export type AuditEntry = Item<'/events/{id}/audit'>;

/** Every action the log knows, for the filter (the server's AUDIT_ACTIONS). */
export const AUDIT_ACTIONS = Object.keys(messages.en.actions) as Array<keyof typeof messages.en.actions>;

export function useAuditT() {
  return useT('audit', messages);
}

const MAX_VALUE = 160;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A stored value as one short line: text as is, the rest as JSON, long ones cut. */
export function valueText(value: unknown, none: string): string {
  if (value === null || value === undefined || value === '') return none;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

interface Change {
  field: string;
  before: unknown;
  after: unknown;
}

function changesOf(data: AuditEntry['data']): Change[] {
  const raw = data.changes;
  if (!Array.isArray(raw)) return [];
  return raw.filter((c): c is Change => typeof c === 'object' && c !== null && typeof (c as { field?: unknown }).field === 'string');
}

/** The details worth a line besides the changes: a decision's reason, a team, an address… */
function facts(entry: AuditEntry, t: (key: string, o?: Record<string, unknown>) => string): string[] {
  const d = entry.data as Record<string, unknown>;
  const out: string[] = [];
  if (typeof d.team_name === 'string') out.push(t('team', { name: d.team_name }));
  if (typeof d.reason === 'string') out.push(t('reason', { reason: d.reason }) + (d.final === true ? ` (${t('final')})` : ''));
  if (typeof d.email === 'string') out.push(t('email', { email: d.email }));
  if (typeof d.requeued === 'number') out.push(t('requeued', { count: d.requeued }));
  if (typeof d.note === 'string') out.push(t('note', { note: d.note }));
  return out;
}

/** The log's entries as a list: time (the viewer's zone), who, what in words, on what, the fields changed. */
export function AuditList({ entries, showEvent = false }: { entries: AuditEntry[]; showEvent?: boolean }) {
  const { t, i18n } = useAuditT();
  const fmt = useFormat();
  if (entries.length === 0) return <EmptyState title={t('empty')} />;
  const actionText = (a: string) => (i18n.exists(`actions.${a}`, { ns: 'audit' }) ? t(`actions.${a}`) : a);
  // An instant (a deadline) in the viewer's zone; anything else as text.
  const shown = (v: unknown) => (typeof v === 'string' && INSTANT.test(v) ? <time dateTime={v}>{fmt.dateTime(v)}</time> : valueText(v, t('none')));
  const targetText = (x: string) => (i18n.exists(`targets.${x}`, { ns: 'audit' }) ? t(`targets.${x}`) : x);
  // A setting by its name on the pages; one the page does not know by its API name.
  const fieldName = (f: string) => (i18n.exists(`fields.${f}`, { ns: 'audit' }) ? <span title={f}>{t(`fields.${f}`)}</span> : <code>{f}</code>);
  return (
    <ol className="audit-list" aria-label={t('title')}>
      {entries.map((e) => {
        const changes = changesOf(e.data);
        const lines = facts(e, t);
        return (
          <li key={e.id} className="audit-entry" data-action={e.action}>
            <div className="audit-head">
              <strong className="audit-action">{actionText(e.action)}</strong>
              <span className="small muted">
                <time dateTime={e.created_at}>{fmt.dateTime(e.created_at)}</time> ·{' '}
                {e.actor_user_id === null && e.actor_label === 'cli' ? t('cli') : e.actor_label}
              </span>
            </div>
            <div className="small muted audit-target">
              {t('target')}: {targetText(e.target_type)} <code>{e.target_id}</code>
              {showEvent && e.event_id ? <> · {t('event', { id: e.event_id })}</> : null}
            </div>
            {lines.length > 0 ? <div className="small">{lines.join(' · ')}</div> : null}
            {changes.length > 0 ? (
              <ul className="audit-changes">
                {changes.map((c) => (
                  <li key={c.field} className="small">
                    {fieldName(c.field)}: <span className="audit-before">{shown(c.before)}</span> → <span className="audit-after">{shown(c.after)}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
