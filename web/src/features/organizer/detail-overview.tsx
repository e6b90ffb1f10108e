import { Link } from 'wouter';
import { useDetailFormat as useFormat } from './detail-format';
import { ErrorState, Loading } from '../../ui/states';
import type { TabProps } from './detail-types';
import { nextSteps, modelTotals } from './detail-next-steps';
import { LiveNote, useOrganizerT, useStats } from './detail-shared';

export default function OverviewTab({ event }: TabProps) {
  const { t } = useOrganizerT();
  const fmt = useFormat();
  const stats = useStats(event.id);
  if (stats.isPending) return <Loading />;
  if (stats.isError) return <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />;
  const s = stats.data;
  const m = modelTotals(s);
  const base = `/events/${encodeURIComponent(event.id)}`;
  const cards: { label: string; value: string; href?: string }[] = [
    { label: t('overview.pending'), value: fmt.number(s.registrations.pending), href: `${base}/registrations` },
    { label: t('overview.approved'), value: fmt.number(s.registrations.approved), href: `${base}/registrations` },
    { label: t('overview.rejected'), value: fmt.number(s.registrations.rejected) },
    { label: t('overview.projects'), value: fmt.number(s.projects), href: `${base}/projects` },
  ];
  if (event.models.length > 0) cards.push({ label: t('overview.aiDone'), value: `${fmt.number(m.done)} / ${fmt.number(m.total)}`, href: `${base}/ai-reviews` });
  cards.push({ label: t('overview.humanDone'), value: fmt.number(s.reviews.human.reviews_done), href: `${base}/reviewers` });
  cards.push({ label: t('overview.reviewers'), value: fmt.number(s.reviews.human.reviewers), href: `${base}/reviewers` });

  const steps = nextSteps(event, s);
  return (
    <div className="stack">
      <LiveNote event={event} />
      <ul className="stats detail-stats" aria-label={t('overview.statsLabel')}>
        {cards.map((c) => (
          <li key={c.label} className="stat">
            <span className="stat-value">{c.value}</span>
            <span className="stat-label">{c.href ? <Link href={c.href}>{c.label}</Link> : c.label}</span>
          </li>
        ))}
      </ul>
      <section className="card" aria-labelledby="next-title">
        <h2 id="next-title">{t('overview.nextTitle')}</h2>
        <ul className="detail-steps">
          {steps.map((step) => {
            const values: Record<string, string | number> = { ...step.values };
            if (typeof values.date === 'string' && values.date) {
              values.when = fmt.relative(values.date);
              values.date = fmt.dateTime(values.date);
            }
            return (
              <li key={step.key} className={`detail-step detail-step-${step.tone ?? 'info'}`}>
                <span>{t(step.key, values)}</span>
                {step.tab ? (
                  <>
                    {' '}
                    <Link href={`${base}/${step.tab}`}>{t(`detail.tabs.${step.tab === 'ai-reviews' ? 'aiReviews' : step.tab}`)}</Link>
                  </>
                ) : null}
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
