import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, post } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { Button, PageHeader, StatusBadge } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { EventNotFound, useEvent, type PublicEvent } from '../shared/event-data';
import { myRegistrationKey, submissionsClosed, updatedBy, useMyRegistration, type MyRegistration, type Project } from './data';
import { messages } from './messages';
import './participant.css';

/** What the page sends: submit replaces the whole project (the schema's anyOf makes its generated type opaque). */
interface SubmitBody {
  project_name: string;
  github_url: string;
  project_website?: string;
  demo_video_url?: string;
  description?: string;
}

/** /hackathons/:id/project: the team's project, created and edited by any member until the submission deadline. */
export default function ProjectPage({ params }: { params: { id: string } }) {
  const { t } = useT('participant', messages);
  const event = useEvent(params.id);
  const mine = useMyRegistration(params.id);
  if (event.isPending || mine.isPending) return <Loading />;
  if (event.isError) {
    if (event.error instanceof ApiProblem && event.error.status === 404) return <EventNotFound />;
    return <ErrorState error={event.error} onRetry={() => void event.refetch()} />;
  }
  if (mine.isError) return <ErrorState error={mine.error} onRetry={() => void mine.refetch()} />;
  const title = t('project.title', { name: event.data.name });
  const reg = mine.data;
  if (!reg) {
    return (
      <section className="narrow stack">
        <PageHeader title={title} />
        <div className="alert alert-info">{t('project.notRegistered')}</div>
        <p className="row">
          <Link className="btn btn-primary" href={`/hackathons/${params.id}/register`}>
            {t('common.register')}
          </Link>
          <Link href={`/hackathons/${params.id}`}>{t('common.backToEvent')}</Link>
        </p>
      </section>
    );
  }
  return <ProjectView event={event.data} reg={reg} title={title} />;
}

function ProjectView({ event, reg, title }: { event: PublicEvent; reg: MyRegistration; title: string }) {
  const { t } = useT('participant', messages);
  const f = useFormat();
  const now = useNow();
  const closed = submissionsClosed(event, now);
  const project = reg.project;
  const track = reg.track_id ? (event.tracks.find((tr) => tr.id === reg.track_id)?.name ?? reg.track_id) : null;
  return (
    <section className="medium stack">
      <PageHeader
        title={title}
        subtitle={t('project.team', { team: reg.team_name })}
        actions={
          <Link className="btn btn-secondary" href={`/hackathons/${event.id}/team`}>
            {t('common.teamPage')}
          </Link>
        }
      />
      <div className="card project-facts">
        <dl className="facts">
          <div>
            <dt>{t('project.registration')}</dt>
            <dd>
              <StatusBadge status={reg.status} kind="registrationStatus" />
            </dd>
          </div>
          {track ? (
            <div>
              <dt>{t('project.track')}</dt>
              <dd>
                {track} <span className="muted small">({t('project.trackFixed')})</span>
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{t('project.deadline')}</dt>
            <dd>
              <time dateTime={event.submission_deadline}>{f.dateTime(event.submission_deadline)}</time>{' '}
              <span className="muted small">{f.relative(event.submission_deadline, now)}</span>
            </dd>
          </div>
          {project ? (
            <div>
              <dt>{t('project.review')}</dt>
              <dd>{t(`project.reviewStatus.${project.review_status}`, { defaultValue: project.review_status })}</dd>
            </div>
          ) : null}
        </dl>
        {project ? <LastChanged project={project} /> : null}
      </div>
      {reg.status !== 'approved' ? (
        <div className="alert alert-warn">{reg.status === 'pending' ? t('project.pending') : t('project.notApproved')}</div>
      ) : closed ? (
        <div className="alert alert-info">{t('project.closed')}</div>
      ) : null}
      {reg.status === 'approved' && !closed ? (
        <ProjectForm eventId={event.id} project={project} />
      ) : project ? (
        <ProjectReadOnly project={project} />
      ) : (
        <p className="muted">{t('project.none')}</p>
      )}
    </section>
  );
}

function LastChanged({ project }: { project: Project }) {
  const { t } = useT('participant', messages);
  const f = useFormat();
  const by = updatedBy(project);
  return (
    <p className="muted small last-changed">
      {by
        ? t('project.lastChangedBy', { name: by.name, date: f.dateTime(project.updated_at) })
        : t('project.lastChanged', { date: f.dateTime(project.updated_at) })}
    </p>
  );
}

function ProjectReadOnly({ project }: { project: Project }) {
  const { t } = useT('participant', messages);
  const link = (url: string | null) =>
    url ? (
      <a href={url} rel="noopener noreferrer nofollow" target="_blank" className="break">
        {url}
      </a>
    ) : (
      <span className="muted">–</span>
    );
  return (
    <section className="card" aria-labelledby="project-ro-title">
      <h2 id="project-ro-title">{project.project_name}</h2>
      <dl className="facts facts-stacked">
        <div>
          <dt>{t('project.github')}</dt>
          <dd>{link(project.github_url)}</dd>
        </div>
        <div>
          <dt>{t('project.website')}</dt>
          <dd>{link(project.project_website)}</dd>
        </div>
        <div>
          <dt>{t('project.video')}</dt>
          <dd>{link(project.demo_video_url)}</dd>
        </div>
        <div>
          <dt>{t('project.description')}</dt>
          <dd className="pre-line">{project.description ?? <span className="muted">–</span>}</dd>
        </div>
      </dl>
    </section>
  );
}

function ProjectForm({ eventId, project }: { eventId: string; project: Project | null }) {
  const { t } = useT('participant', messages);
  const client = useQueryClient();
  const [name, setName] = useState(project?.project_name ?? '');
  const [github, setGithub] = useState(project?.github_url ?? '');
  const [website, setWebsite] = useState(project?.project_website ?? '');
  const [video, setVideo] = useState(project?.demo_video_url ?? '');
  const [description, setDescription] = useState(project?.description ?? '');
  const [checks, setChecks] = useState<Record<string, string>>({});
  const [dirty, setDirty] = useState(false);

  const save = useMutation({
    mutationFn: (body: SubmitBody) => post('/events/{id}/submit', { path: { id: eventId }, body }),
    onSuccess: async () => {
      setDirty(false);
      await client.invalidateQueries({ queryKey: myRegistrationKey(eventId) });
      await client.invalidateQueries({ queryKey: ['team', eventId] });
    },
  });
  const edit = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setDirty(true);
    if (save.isSuccess) save.reset();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!name.trim()) found.project_name = t('register.checks.required');
    if (!github.trim()) found.github_url = t('register.checks.required');
    setChecks(found);
    if (Object.keys(found).length > 0) return;
    // Submit replaces the whole project: every field is sent each time.
    const body: SubmitBody = { project_name: name.trim(), github_url: github.trim() };
    if (website.trim()) body.project_website = website.trim();
    if (video.trim()) body.demo_video_url = video.trim();
    if (description.trim()) body.description = description.trim();
    save.mutate(body);
  };
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const errorOf = (field: string) => checks[field] ?? (problem?.errors.length ? problem.fieldError(field) : undefined);
  const handled = problem && problem.code === 'validation_failed' && problem.errors.length > 0;
  const required = (
    <span className="required-mark" aria-hidden="true">
      {' '}
      *
    </span>
  );
  const requiredSr = <span className="sr-only"> ({t('register.requiredSr')})</span>;
  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-labelledby="project-form-title">
      <h2 id="project-form-title">{project ? t('project.editTitle') : t('project.createTitle')}</h2>
      <p className="muted small">{t('project.shared')}</p>
      {save.error && !handled ? <ProblemAlert error={save.error} /> : null}
      <Field
        label={
          <>
            {t('project.name')}
            {required}
            {requiredSr}
          </>
        }
        error={errorOf('project_name')}
      >
        <input type="text" name="project_name" maxLength={120} value={name} onChange={edit(setName)} />
      </Field>
      <Field
        label={
          <>
            {t('project.github')}
            {required}
            {requiredSr}
          </>
        }
        hint={t('project.githubHint')}
        error={errorOf('github_url')}
      >
        <input type="url" name="github_url" maxLength={2048} placeholder="https://github.com/owner/repo" value={github} onChange={edit(setGithub)} />
      </Field>
      <Field label={t('project.website')} error={errorOf('project_website')}>
        <input type="url" name="project_website" maxLength={2048} placeholder="https://" value={website} onChange={edit(setWebsite)} />
      </Field>
      <Field label={t('project.video')} hint={t('project.videoHint')} error={errorOf('demo_video_url')}>
        <input type="url" name="demo_video_url" maxLength={2048} placeholder="https://" value={video} onChange={edit(setVideo)} />
      </Field>
      <Field label={t('project.description')} hint={t('project.descriptionHint')} error={errorOf('description')}>
        <textarea name="description" rows={8} maxLength={10_000} value={description} onChange={edit(setDescription)} />
      </Field>
      <div className="form-actions">
        <Button type="submit" busy={save.isPending}>
          {project ? t('project.save') : t('project.submit')}
        </Button>
        <span className="muted small" role="status" aria-live="polite">
          {save.isSuccess && !dirty ? t('project.saved') : dirty ? t('project.unsaved') : ''}
        </span>
      </div>
    </form>
  );
}
