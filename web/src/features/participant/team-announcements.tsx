import { useQuery } from '@tanstack/react-query';
import { useT } from '../../i18n';
import { get } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { messages } from './team-announcements-messages';

/**
 * The organizers' announcements that went to the caller in this event (they reached them by mail
 * too), newest first, their Markdown as the server rendered and sanitised it. Nothing when none.
 */
export function TeamAnnouncements({ eventId }: { eventId: string }) {
  const { t } = useT('participant-announcements', messages);
  const f = useFormat();
  const list = useQuery({
    queryKey: ['announcements', eventId, 'mine'],
    queryFn: ({ signal }) => get('/events/{id}/announcements', { path: { id: eventId }, signal }),
  });
  const items = list.data?.announcements.filter((a) => a.state === 'published') ?? [];
  if (items.length === 0) return null;
  return (
    <section className="card stack team-announcements" aria-labelledby="team-announcements-title">
      <h2 id="team-announcements-title">{t('title')}</h2>
      <ul className="announcement-feed">
        {items.map((a) => (
          <li key={a.id} className="stack">
            <h3>{a.title}</h3>
            <p className="small muted">{t('from', { when: f.dateTime(a.published_at) })}</p>
            {/* Rendered and sanitised by the server (src/core/markdown.ts). */}
            <div className="description prose" dangerouslySetInnerHTML={{ __html: a.body_html }} />
          </li>
        ))}
      </ul>
    </section>
  );
}
