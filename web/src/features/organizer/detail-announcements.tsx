import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../i18n';
import { del, get } from '../../lib/api';
import { Button, ConfirmDialog } from '../../ui/controls';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { AnnouncementComposer, announcementsKey, type Announcement } from './announcement-composer';
import { messages } from './announcements-messages';
import { useDetailFormat as useFormat } from './detail-format';
import type { TabProps } from './detail-types';

/** The organizer's announcements: compose (now or later), and every one sent, scheduled or cancelled. */
export default function AnnouncementsTab({ event }: TabProps) {
  const { t } = useT('organizer-announcements', messages);
  const list = useQuery({
    queryKey: announcementsKey(event.id),
    queryFn: ({ signal }) => get('/events/{id}/announcements', { path: { id: event.id }, signal }),
  });
  return (
    <div className="stack">
      <p className="muted">{t('intro')}</p>
      <section className="card stack" aria-labelledby="announcement-compose">
        <h2 id="announcement-compose">{t('compose')}</h2>
        <AnnouncementComposer event={event} />
      </section>
      <section className="card stack" aria-labelledby="announcement-list">
        <h2 id="announcement-list">{t('list')}</h2>
        {list.isPending ? <Loading /> : null}
        {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
        {list.data && list.data.announcements.length === 0 ? <p className="muted">{t('none')}</p> : null}
        {list.data && list.data.announcements.length > 0 ? (
          <ul className="announcement-list">
            {list.data.announcements.map((a) => (
              <AnnouncementItem key={a.id} eventId={event.id} a={a} />
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}

/** The badge colour of each state (the shared badge classes). */
const BADGE: Record<Announcement['state'], string> = { published: 'approved', scheduled: 'pending', sending: 'active', cancelled: 'cancelled' };

function AnnouncementItem({ eventId, a }: { eventId: string; a: Announcement }) {
  const { t } = useT('organizer-announcements', messages);
  const fmt = useFormat();
  const client = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const cancel = useMutation({
    mutationFn: () => del('/events/{id}/announcements/{announcementId}', { path: { id: eventId, announcementId: a.id } }),
    onSuccess: async () => {
      setConfirm(false);
      await client.invalidateQueries({ queryKey: announcementsKey(eventId) });
    },
  });
  return (
    <li className="announcement-item stack">
      <div className="row announcement-head">
        <h3>{a.title}</h3>
        <span className={`badge badge-${BADGE[a.state]}`}>{t(`state.${a.state}`)}</span>
      </div>
      <p className="small muted">
        {t(`segments.${a.segment}`)}
        {' · '}
        {a.state === 'published' ? t('sentAt', { when: fmt.dateTime(a.published_at) }) : null}
        {a.state === 'scheduled' || a.state === 'cancelled' ? t('dueAt', { when: fmt.dateTime(a.publish_at) }) : null}
        {a.recipients !== null ? ` · ${t('recipients', { count: a.recipients })}` : null}
      </p>
      {/* Rendered and sanitised by the server (src/core/markdown.ts). */}
      <div className="description prose" dangerouslySetInnerHTML={{ __html: a.body_html }} />
      {a.state === 'scheduled' ? (
        <div className="row">
          <Button variant="secondary" onClick={() => setConfirm(true)}>
            {t('cancel')}
          </Button>
        </div>
      ) : null}
      {cancel.isError ? <ProblemAlert error={cancel.error} /> : null}
      <ConfirmDialog
        open={confirm}
        title={t('cancelTitle')}
        confirmLabel={t('cancelConfirm')}
        variant="danger"
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onClose={() => setConfirm(false)}
      >
        <p>{t('cancelBody')}</p>
      </ConfirmDialog>
    </li>
  );
}
