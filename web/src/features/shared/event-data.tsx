import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { get, type Answer } from '../../lib/api';
import { useTitle } from '../../ui/controls';
import { messages } from './event-messages';

/** A public event as every event-scoped page reads it (event, result, gallery, team, project pages). */
export type PublicEvent = Answer<'/events/{id}'>;

export function useEvent(id: string) {
  return useQuery({ queryKey: ['public-event', id], queryFn: ({ signal }) => get('/events/{id}', { path: { id }, signal }) });
}

export function EventNotFound() {
  const { t } = useT('shared-event', messages);
  useTitle(t('notFoundTitle'));
  return (
    <section className="state state-block" aria-labelledby="enf-title">
      <h1 id="enf-title">{t('notFoundTitle')}</h1>
      <p>{t('notFound')}</p>
      <p>
        <Link href="/">{t('backHome')}</Link>
      </p>
    </section>
  );
}
