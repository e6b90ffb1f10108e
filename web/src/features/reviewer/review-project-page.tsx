import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, get, post, put } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { Button, ConfirmDialog, PageHeader } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { messages } from './messages';
import { assignmentsKey, useAllAssignments, useTrackNames, type Assignment, type Review } from './reviewer-data';
import { nextUnreviewed, parseScore, safeHttpUrl, SCORE_MAX, SCORE_MIN, weightedTotal, weightShares, type Dimension } from './scoring';
import './reviewer.css';

export default function ReviewProjectPage({ params }: { params: { eventId: string; projectId: string } }) {
  const { t } = useT('reviewer', messages);
  const { eventId, projectId } = params;
  const all = useAllAssignments(eventId);
  const review = useQuery({
    queryKey: ['my-review', eventId, projectId],
    queryFn: async () => {
      try {
        return await get('/events/{id}/projects/{pid}/review', { path: { id: eventId, pid: projectId } });
      } catch (err) {
        // 404 not_found: no review yet (a missing project is project_not_found and stays an error).
        if (err instanceof ApiProblem && err.code === 'not_found') return null;
        throw err;
      }
    },
  });
  if (all.isPending || review.isPending) return <Loading />;
  if (all.isError) return <ErrorState error={all.error} onRetry={() => void all.refetch()} />;
  const project = all.data.projects.find((p) => p.project_id === projectId);
  const backHref = `/reviews/${encodeURIComponent(eventId)}`;
  if (!project) {
    return (
      <section className="state state-block" aria-labelledby="np-title">
        <h1 id="np-title">{t('project.notFound')}</h1>
        <p>
          <Link href={backHref}>{t('project.backToList')}</Link>
        </p>
      </section>
    );
  }
  if (review.isError) return <ErrorState error={review.error} onRetry={() => void review.refetch()} />;
  return (
    <ProjectReview
      key={projectId}
      eventId={eventId}
      eventName={all.data.event.name}
      eventStatus={all.data.event.status}
      reviewingOpen={all.data.reviewing_open}
      dimensions={all.data.dimensions}
      projects={all.data.projects}
      project={project}
      review={review.data}
    />
  );
}

function ProjectReview({
  eventId,
  eventName,
  eventStatus,
  reviewingOpen,
  dimensions,
  projects,
  project,
  review,
}: {
  eventId: string;
  eventName: string;
  eventStatus: string;
  reviewingOpen: boolean;
  dimensions: Dimension[];
  projects: Assignment[];
  project: Assignment;
  review: Review | null;
}) {
  const { t } = useT('reviewer', messages);
  const common = useT();
  const f = useFormat();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const tracks = useTrackNames(eventId);
  const shares = weightShares(dimensions);
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(dimensions.map((d) => [d.name, review?.scores[d.name] !== undefined ? String(review.scores[d.name]) : ''])),
  );
  const [comment, setComment] = useState(review?.comment ?? '');
  const [touched, setTouched] = useState(false);
  const [saved, setSaved] = useState<'saved' | 'all' | null>(null);
  const parsed = Object.fromEntries(dimensions.map((d) => [d.name, parseScore(texts[d.name] ?? '')]));
  const total = weightedTotal(dimensions, parsed);
  const backHref = `/reviews/${encodeURIComponent(eventId)}`;
  const statusName = common.t(`eventStatus.${eventStatus}`, { defaultValue: eventStatus });

  const save = useMutation({
    mutationFn: (_next: boolean) =>
      put('/events/{id}/projects/{pid}/review', {
        path: { id: eventId, pid: project.project_id },
        body: { scores: parsed as Record<string, number>, comment: comment.trim() ? comment : null },
      }),
    onSuccess: (saved, goNext) => {
      client.setQueryData(['my-review', eventId, project.project_id], saved);
      void client.invalidateQueries({ queryKey: assignmentsKey(eventId) });
      void client.invalidateQueries({ queryKey: ['me', 'review-events'] });
      const next = nextUnreviewed(
        projects.map((p) => ({ ...p, reviewed: p.project_id === project.project_id || p.my_review !== null })),
        project.project_id,
      );
      if (goNext && next) {
        navigate(`/reviews/${encodeURIComponent(eventId)}/projects/${encodeURIComponent(next.project_id)}`);
        return;
      }
      setSaved(next ? 'saved' : 'all');
    },
  });
  // A conflict of interest: the project leaves the reviewer's queue (and their review of it goes).
  const [confirmConflict, setConfirmConflict] = useState(false);
  const conflict = useMutation({
    mutationFn: () => post('/events/{id}/projects/{pid}/conflict', { path: { id: eventId, pid: project.project_id } }),
    onSuccess: async () => {
      setConfirmConflict(false);
      await client.invalidateQueries({ queryKey: assignmentsKey(eventId) });
      void client.invalidateQueries({ queryKey: ['me', 'review-events'] });
      navigate(backHref);
    },
  });
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const notJudging = problem?.code === 'not_judging';

  const submit = (goNext: boolean) => (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (dimensions.some((d) => parsed[d.name] === null || Number.isNaN(parsed[d.name]))) return;
    save.mutate(goNext);
  };

  const fieldError = (name: string): string | undefined => {
    const v = parsed[name];
    if (touched && (v === null || Number.isNaN(v))) return t('project.invalidScore', { min: SCORE_MIN, max: SCORE_MAX });
    if (!touched && v !== null && Number.isNaN(v)) return t('project.invalidScore', { min: SCORE_MIN, max: SCORE_MAX });
    return problem?.fieldError(`scores.${name}`);
  };
  const commentError = problem?.fieldError('comment');
  const fieldProblems = problem && (problem.errors.length > 0 || notJudging);
  const trackName = project.track_id ? (tracks[project.track_id] ?? project.track_id) : null;
  const links = [
    { label: t('project.repo'), url: safeHttpUrl(project.github_url) },
    { label: t('project.video'), url: safeHttpUrl(project.demo_video_url) },
    { label: t('project.website'), url: safeHttpUrl(project.project_website) },
  ].filter((l): l is { label: string; url: string } => l.url !== null);

  return (
    <div className="stack">
      <p>
        <Link href={backHref}>
          <span aria-hidden="true">← </span>
          {t('project.back', { event: eventName })}
        </Link>
      </p>
      <PageHeader title={project.name} subtitle={`${t('project.team', { team: project.team_name })}${trackName ? ` · ${trackName}` : ''}`} />
      {reviewingOpen ? null : <p className="alert alert-warn">{t('project.notJudging', { status: statusName })}</p>}
      {project.flags.length > 0 ? <ReviewerFlags flags={project.flags} /> : null}
      <div className="review-layout">
        <section className="card stack" aria-labelledby="about-heading">
          <h2 id="about-heading">{t('project.description')}</h2>
          {project.description ? (
            // Rendered and sanitised by the server (src/core/markdown.ts), as on every page that shows a description.
            <div className="project-description prose" data-testid="description" dangerouslySetInnerHTML={{ __html: project.description_html }} />
          ) : (
            <p className="muted">{t('project.noDescription')}</p>
          )}
          {links.length ? (
            <>
              <h3>{t('project.links')}</h3>
              <ul className="link-list">
                {links.map((l) => (
                  <li key={l.label}>
                    <a href={l.url} target="_blank" rel="noopener noreferrer">
                      {l.label}
                      <span className="sr-only"> {t('project.newTab')}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
        <section className="card review-form-card" aria-labelledby="scores-heading">
          <form onSubmit={submit(false)} noValidate>
            <fieldset className="scores-fieldset" disabled={!reviewingOpen}>
              <legend id="scores-heading">{t('project.scores')}</legend>
              <p className="muted small">{t('project.scale', { min: SCORE_MIN, max: SCORE_MAX })}</p>
              {dimensions.map((d, i) => (
                <ScoreInput
                  key={d.name}
                  dimension={d}
                  hint={t('project.shareHint', { weight: f.number(d.weight), share: f.percent(shares[i] ?? 0, 1) })}
                  value={texts[d.name] ?? ''}
                  error={fieldError(d.name)}
                  onChange={(v) => {
                    setTexts((s) => ({ ...s, [d.name]: v }));
                    setSaved(null);
                  }}
                />
              ))}
              <div className="total-box" aria-live="polite">
                <span>{t('project.total')}</span>
                {total === null ? (
                  <span className="muted">{t('project.totalPending')}</span>
                ) : (
                  <>
                    <span className="total-value">{f.number(total, 2)}</span>
                    <span className="muted">{t('project.outOf', { max: SCORE_MAX })}</span>
                  </>
                )}
              </div>
              <Field label={t('project.comment')} hint={t('project.commentHint')} error={commentError}>
                <textarea
                  value={comment}
                  onChange={(e) => {
                    setComment(e.target.value);
                    setSaved(null);
                  }}
                  maxLength={10_000}
                  rows={5}
                />
              </Field>
              <div className="form-actions">
                <Button type="submit" busy={save.isPending && save.variables === false}>
                  {t('project.save')}
                </Button>
                <Button variant="secondary" busy={save.isPending && save.variables === true} onClick={() => submit(true)()}>
                  {t('project.saveNext')}
                </Button>
              </div>
            </fieldset>
          </form>
          <div role="status" aria-live="polite">
            {saved ? (
              <p className="alert alert-ok">
                {t(saved === 'all' ? 'project.allReviewed' : 'project.saved')} <Link href={backHref}>{t('project.backToList')}</Link>
              </p>
            ) : null}
          </div>
          {notJudging ? (
            <p className="alert alert-error" role="alert">
              {t('project.notJudging', { status: statusName })}
            </p>
          ) : null}
          {save.error && !fieldProblems ? <ProblemAlert error={save.error} /> : null}
          {review ? <p className="muted small">{t('project.updated', { when: f.dateTime(review.updated_at) })}</p> : null}
          <p>
            <Button
              variant="ghost"
              className="btn-small"
              onClick={() => {
                conflict.reset();
                setConfirmConflict(true);
              }}
            >
              {t('project.declareConflict')}
            </Button>
          </p>
        </section>
        <ConfirmDialog
          open={confirmConflict}
          title={t('project.conflictTitle')}
          confirmLabel={t('project.declareConflict')}
          variant="danger"
          busy={conflict.isPending}
          onConfirm={() => conflict.mutate()}
          onClose={() => {
            if (!conflict.isPending) setConfirmConflict(false);
          }}
        >
          <p>{t('project.conflictBody')}</p>
          {conflict.error ? <ProblemAlert error={conflict.error} /> : null}
        </ConfirmDialog>
      </div>
    </div>
  );
}

/**
 * What screening and the build-window checks found in the project, shown above the scoring so the
 * reviewer weighs it (read-only: the organizers mark flags checked; their notes are not shown here).
 */
function ReviewerFlags({ flags }: { flags: Assignment['flags'] }) {
  const { t } = useT('reviewer', messages);
  const labels: Record<string, string> = {
    'project.name': t('flags.sourceName'),
    'project.description': t('flags.sourceDescription'),
    'repository.readme': t('flags.sourceReadme'),
    repo_created_before_start: t('flags.sourceCreated'),
    first_commit_before_start: t('flags.sourceFirstCommit'),
    giant_commit: t('flags.sourceGiant'),
    fork: t('flags.sourceFork'),
    duplicate_repository: t('flags.sourceDuplicate'),
  };
  return (
    <section className="card stack review-flags" aria-labelledby="flags-heading">
      <h2 id="flags-heading">{t('flags.title', { count: flags.length })}</h2>
      <p className="small muted">{t('flags.intro')}</p>
      <ul className="review-flag-list">
        {flags.map((f) => {
          const buildWindow = f.kind === 'build_window';
          return (
            <li key={f.id} className="review-flag stack">
              <div className="spread">
                <span>
                  <span className="small muted">{buildWindow ? t('flags.kindBuildWindow') : t('flags.kindScreening')} · </span>
                  <strong>{labels[f.source] ?? f.source}</strong>
                </span>
                <span className={`badge ${f.status === 'checked' ? 'badge-approved' : 'badge-pending'}`}>
                  {f.status === 'checked' ? t('flags.checked') : t('flags.open')}
                </span>
              </div>
              {/* A screening finding quotes the submission (as text, never markup); a build-window finding is the check's own sentence. */}
              {buildWindow ? <p>{f.evidence}</p> : <blockquote className="review-flag-evidence">{f.evidence}</blockquote>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function ScoreInput({
  dimension,
  hint,
  value,
  error,
  onChange,
}: {
  dimension: Dimension;
  hint: string;
  value: string;
  error: string | undefined;
  onChange: (v: string) => void;
}) {
  const { t } = useT('reviewer', messages);
  const id = useId();
  const parsed = parseScore(value);
  const rangeValue = parsed === null || Number.isNaN(parsed) ? SCORE_MIN : parsed;
  return (
    <div className="score-row" data-invalid={error ? 'true' : undefined}>
      <label htmlFor={`${id}-n`} className="score-label">
        <span>{dimension.name}</span>
      </label>
      <input
        type="range"
        min={SCORE_MIN}
        max={SCORE_MAX}
        step={0.5}
        value={rangeValue}
        aria-label={t('project.slider', { name: dimension.name })}
        aria-describedby={`${id}-h`}
        onChange={(e) => onChange(e.target.value)}
      />
      <input
        id={`${id}-n`}
        type="number"
        inputMode="decimal"
        min={SCORE_MIN}
        max={SCORE_MAX}
        step={0.5}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-h${error ? ` ${id}-e` : ''}`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="field-hint" id={`${id}-h`}>
        {hint}
      </p>
      {error ? (
        <p className="field-error" id={`${id}-e`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
