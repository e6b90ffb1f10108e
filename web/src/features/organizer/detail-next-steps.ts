import type { EventDetail, EventStats } from './detail-types';

/** What the overview says comes next, as message keys with values (pure: unit-tested without a DOM). */
export interface NextStep {
  key: string;
  values?: Record<string, string | number>;
  /** A tab of the page that deals with it. */
  tab?: string;
  tone?: 'info' | 'warn' | 'ok';
}

export function modelTotals(stats: EventStats) {
  let done = 0;
  let failed = 0;
  let pending = 0;
  for (const m of stats.reviews.by_model) {
    done += m.done;
    failed += m.failed;
    pending += m.pending + m.running;
  }
  return { done, failed, pending, total: done + failed + pending };
}

export function nextSteps(
  event: Pick<EventDetail, 'status' | 'registration_deadline' | 'submission_deadline' | 'result_announced_at' | 'models'>,
  stats: EventStats | undefined,
): NextStep[] {
  const steps: NextStep[] = [];
  const pendingRegs = stats?.registrations.pending ?? 0;
  switch (event.status) {
    case 'draft':
      steps.push({ key: 'next.draft', tone: 'info' });
      break;
    case 'open':
      steps.push({ key: 'next.registrationCloses', values: { date: event.registration_deadline }, tone: 'info' });
      break;
    case 'active':
      steps.push({ key: 'next.submissionCloses', values: { date: event.submission_deadline }, tone: 'info' });
      break;
    case 'judging': {
      if (stats) {
        const m = modelTotals(stats);
        if (event.models.length > 0) steps.push({ key: 'next.aiProgress', values: { done: m.done, total: m.total }, tab: 'ai-reviews', tone: 'info' });
        if (m.failed > 0) steps.push({ key: 'next.aiFailed', values: { count: m.failed }, tab: 'ai-reviews', tone: 'warn' });
        if (stats.reviews.human.reviewers > 0)
          steps.push({ key: 'next.humanProgress', values: { count: stats.reviews.human.reviews_done }, tab: 'reviewers', tone: 'info' });
        if (m.pending === 0) steps.push({ key: 'next.readyToPublish', tab: 'publish', tone: 'ok' });
      }
      break;
    }
    case 'ended':
      steps.push({ key: 'next.published', values: { date: event.result_announced_at ?? '' }, tone: 'ok' });
      break;
    case 'cancelled':
      steps.push({ key: 'next.cancelled', tone: 'warn' });
      break;
  }
  if (pendingRegs > 0 && (event.status === 'open' || event.status === 'active' || event.status === 'judging')) {
    steps.push({ key: 'next.pendingRegistrations', values: { count: pendingRegs }, tab: 'registrations', tone: 'warn' });
  }
  return steps;
}
