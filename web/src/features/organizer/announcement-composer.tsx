import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../i18n';
import { ApiProblem, post, type Answer, type Body } from '../../lib/api';
import { browserTimeZone } from '../../lib/format';
import { Button } from '../../ui/controls';
import { Checkbox, Field } from '../../ui/form';
import { ProblemAlert } from '../../ui/states';
import { messages } from './announcements-messages';
import { useDetailFormat as useFormat } from './detail-format';
import { offsetLabel, wallToUtc } from './event-form-time';

export type Segment = Body<'/events/{id}/announcements', 'post'>['segment'];
export type Announcement = Answer<'/events/{id}/announcements'>['announcements'][number];

export const SEGMENTS: readonly Segment[] = ['registered', 'approved', 'no_final_submission', 'reviewers', 'winners'];

/** The query key of an event's announcements (the tab's list; the composer refreshes it). */
export const announcementsKey = (eventId: string) => ['event', eventId, 'announcements'];

/**
 * Writes an announcement to a segment, sent now or at a date and time in the event's zone. Used by
 * the Announcements tab and by the event editor's "tell the teams" offer (prefilled).
 */
export function AnnouncementComposer({
  event,
  initial,
  onSent,
  extraActions,
}: {
  event: { id: string; time_zone?: string | null };
  initial?: { title: string; body: string; segment: Segment };
  onSent?: (a: Answer<'/events/{id}/announcements', 'post'>) => void;
  extraActions?: React.ReactNode;
}) {
  const { t } = useT('organizer-announcements', messages);
  const fmt = useFormat();
  const client = useQueryClient();
  const zone = event.time_zone ?? browserTimeZone();
  const [title, setTitle] = useState(initial?.title ?? '');
  const [body, setBody] = useState(initial?.body ?? '');
  const [segment, setSegment] = useState<Segment>(initial?.segment ?? 'approved');
  const [later, setLater] = useState(false);
  const [when, setWhen] = useState({ date: '', time: '' });
  const [timeError, setTimeError] = useState<string | undefined>();
  const [done, setDone] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (b: Body<'/events/{id}/announcements', 'post'>) => post('/events/{id}/announcements', { path: { id: event.id }, body: b }),
    onSuccess: async (a) => {
      setDone(a.state === 'scheduled' ? t('scheduledFor', { when: fmt.dateTime(a.publish_at) }) : t('sent', { count: a.recipients ?? 0 }));
      setTitle('');
      setBody('');
      setLater(false);
      setWhen({ date: '', time: '' });
      await client.invalidateQueries({ queryKey: announcementsKey(event.id) });
      onSent?.(a);
    },
  });
  const problem = send.error instanceof ApiProblem ? send.error : null;
  const fieldError = (f: string) => problem?.fieldError(f);
  const shownProblem = problem && !['title', 'body', 'segment', 'publish_at'].some((f) => problem.fieldError(f));

  function submit() {
    setDone(null);
    let publish_at: string | null = null;
    if (later) {
      const r = wallToUtc(when, zone);
      if (!r) {
        setTimeError(t('badTime'));
        return;
      }
      publish_at = r.iso;
    }
    setTimeError(undefined);
    send.mutate({ title, body, segment, ...(publish_at ? { publish_at } : {}) });
  }

  return (
    <form
      className="stack announcement-composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {shownProblem ? <ProblemAlert error={send.error} /> : null}
      <Field label={t('title')} error={fieldError('title')}>
        <input type="text" value={title} maxLength={120} required onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <Field label={t('body')} hint={t('bodyHint')} error={fieldError('body')}>
        <textarea value={body} rows={8} maxLength={10_000} required onChange={(e) => setBody(e.target.value)} />
      </Field>
      <Field label={t('segment')} error={fieldError('segment')}>
        <select value={segment} onChange={(e) => setSegment(e.target.value as Segment)}>
          {SEGMENTS.map((s) => (
            <option key={s} value={s}>
              {t(`segments.${s}`)}
            </option>
          ))}
        </select>
      </Field>
      <Checkbox label={t('later')} checked={later} onChange={(e) => setLater(e.target.checked)} />
      {later ? (
        <fieldset className="announcement-when">
          <legend className="sr-only">{t('later')}</legend>
          <div className="row">
            <Field label={t('date')} error={timeError ?? fieldError('publish_at')}>
              <input type="date" value={when.date} onChange={(e) => setWhen({ ...when, date: e.target.value })} />
            </Field>
            <Field label={t('time')}>
              <input type="time" value={when.time} onChange={(e) => setWhen({ ...when, time: e.target.value })} />
            </Field>
          </div>
          <p className="small muted">{t('zone', { zone, offset: offsetLabel(zone) })}</p>
        </fieldset>
      ) : null}
      <div className="form-actions row">
        <Button type="submit" busy={send.isPending}>
          {later ? t('schedule') : t('send')}
        </Button>
        {extraActions}
        {done ? (
          <span role="status" className="muted small">
            {done}
          </span>
        ) : null}
      </div>
    </form>
  );
}
