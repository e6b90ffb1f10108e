import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useT } from '../../i18n';
import { get } from '../../lib/api';
import { browserTimeZone, useFormat } from '../../lib/format';
import { Button } from '../../ui/controls';
import { AnnouncementComposer } from './announcement-composer';
import { messages } from './announcements-messages';
import { formatDateTime } from './event-form-time';

/** A saved change of an event's deadlines: the instants before and after (only the changed ones differ). */
export interface DeadlineChange {
  registration: { before: string; after: string };
  submission: { before: string; after: string };
}

/** The change between two versions of an event, or null when neither deadline moved. */
export function deadlineChange(
  before: { registration_deadline: string; submission_deadline: string },
  after: { registration_deadline: string; submission_deadline: string },
): DeadlineChange | null {
  const same = (a: string, b: string) => Date.parse(a) === Date.parse(b);
  if (same(before.registration_deadline, after.registration_deadline) && same(before.submission_deadline, after.submission_deadline)) return null;
  return {
    registration: { before: before.registration_deadline, after: after.registration_deadline },
    submission: { before: before.submission_deadline, after: after.submission_deadline },
  };
}

/**
 * After the organizer saved moved deadlines of an event that has registrations: "Tell the teams?",
 * an announcement to everyone registered, prefilled with old → new in the event's zone, to edit
 * and send (or dismiss). Nothing when no team is registered.
 */
export function TellTheTeams({
  event,
  change,
  onClose,
}: {
  event: { id: string; name: string; time_zone?: string | null };
  change: DeadlineChange;
  onClose: () => void;
}) {
  const { t } = useT('organizer-announcements', messages);
  const fmt = useFormat();
  const zone = event.time_zone ?? browserTimeZone();
  const ref = useRef<HTMLElement>(null);
  const [sent, setSent] = useState(false);
  const stats = useQuery({
    queryKey: ['event', event.id, 'stats-for-announcement'],
    queryFn: ({ signal }) => get('/events/{id}/stats', { path: { id: event.id }, signal }),
  });
  const r = stats.data?.registrations;
  const registered = r ? r.pending + r.approved + r.rejected > 0 : false;
  const initial = useMemo(() => {
    const at = (iso: string) => formatDateTime(fmt.locale, iso, zone);
    const lines = [t('tell.lead', { event: event.name }), ''];
    const moved = (c: { before: string; after: string }) => Date.parse(c.before) !== Date.parse(c.after);
    if (moved(change.registration)) lines.push(t('tell.registration', { before: at(change.registration.before), after: at(change.registration.after) }));
    if (moved(change.submission)) lines.push(t('tell.submission', { before: at(change.submission.before), after: at(change.submission.after) }));
    lines.push('', t('tell.zone', { zone }));
    return { title: t('tell.subject'), body: lines.join('\n'), segment: 'registered' as const };
  }, [change, event.name, fmt.locale, t, zone]);
  useEffect(() => {
    if (registered) ref.current?.scrollIntoView({ block: 'start' });
  }, [registered]);
  if (!registered) return null;
  return (
    <section ref={ref} className="card stack tell-the-teams" aria-labelledby="tell-the-teams-title">
      <h2 id="tell-the-teams-title">{t('tell.title')}</h2>
      {sent ? null : <p>{t('tell.intro')}</p>}
      <AnnouncementComposer
        event={event}
        initial={initial}
        onSent={() => setSent(true)}
        extraActions={
          <Button variant="secondary" onClick={onClose}>
            {t('tell.dismiss')}
          </Button>
        }
      />
    </section>
  );
}
