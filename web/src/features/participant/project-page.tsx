import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { useT } from '../../i18n';
import { ApiProblem, del, get, mediaPath, post, postFile, put } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useNow } from '../../lib/now';
import { Button, PageHeader, StatusBadge } from '../../ui/controls';
import { Field } from '../../ui/form';
import { ErrorState, Loading, ProblemAlert } from '../../ui/states';
import { EventNotFound, useEvent, type PublicEvent } from '../shared/event-data';
import { ScreenshotGrid, TagList } from '../shared/project-showcase';
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
  tagline: string;
  tags: string[];
}

/** The most screenshots and tags a project may have, and a tag's and the tagline's longest (the server's SHOWCASE_LIMITS). */
const LIMITS = { screenshots: 5, tags: 10, tagLength: 32, tagline: 140 } as const;

/** A tag as the server stores it (normaliseTag): lower case, '-' for spaces and underscores, no leading '#'. */
function normaliseTag(raw: string): string {
  return raw
    .normalize('NFKC')
    .trim()
    .replace(/^#+/, '')
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
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
        <>
          <ProjectForm eventId={event.id} project={project} />
          {project ? <ScreenshotsEditor eventId={event.id} project={project} /> : null}
        </>
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
    <section className="card stack" aria-labelledby="project-ro-title">
      <h2 id="project-ro-title">{project.project_name}</h2>
      {project.tagline ? <p className="project-tagline">{project.tagline}</p> : null}
      <TagList tags={project.tags} />
      <ScreenshotGrid shots={project.screenshots} name={project.project_name} />
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
          <dd>
            {project.description ? (
              // Rendered and sanitised by the server (src/core/markdown.ts), as on every page that shows a description.
              <div className="prose" data-testid="description" dangerouslySetInnerHTML={{ __html: project.description_html }} />
            ) : (
              <span className="muted">–</span>
            )}
          </dd>
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
  const [tagline, setTagline] = useState(project?.tagline ?? '');
  const [tags, setTags] = useState<string[]>(project?.tags ?? []);
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
    const body: SubmitBody = { project_name: name.trim(), github_url: github.trim(), tagline: tagline.trim(), tags };
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
      <Field label={t('project.tagline')} hint={t('project.taglineHint')} error={errorOf('tagline')}>
        <input type="text" name="tagline" maxLength={LIMITS.tagline} value={tagline} onChange={edit((v) => setTagline(v.replace(/[\r\n]+/g, ' ')))} />
      </Field>
      <TagsEditor
        eventId={eventId}
        tags={tags}
        error={errorOf('tags')}
        onChange={(next) => {
          setTags(next);
          setDirty(true);
          if (save.isSuccess) save.reset();
        }}
      />
      <DescriptionEditor value={description} onChange={edit(setDescription)} error={errorOf('description')} />
      <div className="form-actions">
        <Button type="submit" busy={save.isPending}>
          {project ? t('project.save') : t('project.submit')}
        </Button>
        <span className="muted small" role="status" aria-live="polite">
          {save.isSuccess && !dirty ? t('project.saved') : dirty ? t('project.unsaved') : ''}
        </span>
      </div>
      {project ? null : <p className="muted small">{t('project.shotsAfterSubmit')}</p>}
    </form>
  );
}

/** "Built with" tags as removable chips, an input that adds one on Enter or comma, and the event's other tags as suggestions. */
function TagsEditor({ eventId, tags, error, onChange }: { eventId: string; tags: string[]; error: string | undefined; onChange: (tags: string[]) => void }) {
  const { t } = useT('participant', messages);
  const [draft, setDraft] = useState('');
  const suggestions = useQuery({
    queryKey: ['project-tags', eventId],
    queryFn: ({ signal }) => get('/events/{id}/project-tags', { path: { id: eventId }, signal }),
    staleTime: 60_000,
  });
  const add = (raw: string) => {
    const tag = normaliseTag(raw).slice(0, LIMITS.tagLength);
    setDraft('');
    if (!tag || tags.includes(tag) || tags.length >= LIMITS.tags) return;
    onChange([...tags, tag]);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      add(draft);
    } else if (e.key === 'Backspace' && !draft && tags.length) onChange(tags.slice(0, -1));
  };
  const offered = (suggestions.data ?? []).filter((s) => !tags.includes(s.tag)).slice(0, 12);
  const listId = `tags-suggest-${eventId}`;
  return (
    <div className="stack stack-tight">
      <Field label={t('project.tags')} hint={t('project.tagsHint', { max: LIMITS.tags })} error={error}>
        <input
          type="text"
          name="tags"
          list={listId}
          maxLength={64}
          value={draft}
          disabled={tags.length >= LIMITS.tags}
          onChange={(e) => (e.target.value.endsWith(',') ? add(e.target.value.slice(0, -1)) : setDraft(e.target.value))}
          onKeyDown={onKey}
          onBlur={() => draft.trim() && add(draft)}
        />
      </Field>
      <datalist id={listId}>
        {offered.map((s) => (
          <option key={s.tag} value={s.tag} />
        ))}
      </datalist>
      {tags.length > 0 ? (
        <ul className="tag-list" data-testid="tag-chips">
          {tags.map((tag) => (
            <li key={tag} className="tag-chip">
              {tag}
              <button type="button" className="tag-remove" aria-label={t('project.tagRemove', { tag })} onClick={() => onChange(tags.filter((x) => x !== tag))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {offered.length > 0 && tags.length < LIMITS.tags ? (
        <p className="small muted tag-suggest">
          {t('project.tagsUsed')}{' '}
          {offered.slice(0, 8).map((s) => (
            <button key={s.tag} type="button" className="link-button tag-suggestion" onClick={() => add(s.tag)}>
              {s.tag} ({s.count})
            </button>
          ))}
        </p>
      ) : null}
    </div>
  );
}

/** The description with a Write / Preview switch: the preview is the server's rendering (POST /markdown/preview), as every page shows it. */
function DescriptionEditor({ value, onChange, error }: { value: string; onChange: (e: { target: { value: string } }) => void; error: string | undefined }) {
  const { t } = useT('participant', messages);
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const preview = useQuery({
    queryKey: ['markdown-preview', value],
    queryFn: ({ signal }) => post('/markdown/preview', { body: { markdown: value }, signal }),
    enabled: mode === 'preview' && value.trim() !== '',
    staleTime: Infinity,
  });
  return (
    <div className="stack stack-tight">
      <div className="md-tabs" role="group" aria-label={t('project.description')}>
        <button type="button" className={`md-tab${mode === 'write' ? ' is-active' : ''}`} aria-pressed={mode === 'write'} onClick={() => setMode('write')}>
          {t('project.write')}
        </button>
        <button
          type="button"
          className={`md-tab${mode === 'preview' ? ' is-active' : ''}`}
          aria-pressed={mode === 'preview'}
          onClick={() => setMode('preview')}
        >
          {t('project.preview')}
        </button>
      </div>
      {mode === 'write' ? (
        <Field label={t('project.description')} hint={t('project.descriptionHint')} error={error}>
          <textarea name="description" rows={8} maxLength={10_000} value={value} onChange={onChange} />
        </Field>
      ) : (
        <div className="md-preview card" data-testid="markdown-preview" aria-live="polite">
          {value.trim() === '' ? (
            <p className="muted">{t('project.previewEmpty')}</p>
          ) : preview.isPending ? (
            <p className="muted">{t('project.previewLoading')}</p>
          ) : preview.isError ? (
            <ProblemAlert error={preview.error} />
          ) : (
            // Rendered and sanitised by the server (src/core/markdown.ts).
            <div className="prose" dangerouslySetInnerHTML={{ __html: preview.data.html }} />
          )}
        </div>
      )}
    </div>
  );
}

/** Upload, remove and order the project's screenshots (each change is its own request, saved at once). */
function ScreenshotsEditor({ eventId, project }: { eventId: string; project: Project }) {
  const { t } = useT('participant', messages);
  const client = useQueryClient();
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: myRegistrationKey(eventId) });
    await client.invalidateQueries({ queryKey: ['team', eventId] });
  };
  const upload = useMutation({
    mutationFn: (file: File) => postFile('/events/{id}/project/screenshots', { id: eventId }, file),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (shotId: string) => del('/events/{id}/project/screenshots/{shot_id}', { path: { id: eventId, shot_id: shotId } }),
    onSuccess: refresh,
  });
  const order = useMutation({
    mutationFn: (ids: string[]) => put('/events/{id}/project/screenshot-order', { path: { id: eventId }, body: { ids } }),
    onSuccess: refresh,
  });
  const shots = project.screenshots;
  const move = (i: number, by: number) => {
    const ids = shots.map((s) => s.id);
    const [id] = ids.splice(i, 1);
    ids.splice(i + by, 0, id!);
    order.mutate(ids);
  };
  const error = upload.error ?? remove.error ?? order.error;
  return (
    <section className="card stack shots-editor" aria-labelledby="shots-title">
      <h2 id="shots-title">{t('project.shots')}</h2>
      <p className="muted small">{t('project.shotsHint', { max: LIMITS.screenshots })}</p>
      {error ? <ProblemAlert error={error} /> : null}
      {shots.length > 0 ? (
        <ul className="shots-edit-list">
          {shots.map((s, i) => (
            <li key={s.id} className="shot-edit">
              <img src={mediaPath(s.url) ?? ''} alt={t('project.shotAlt', { n: i + 1 })} width={s.width} height={s.height} />
              <div className="row shot-actions">
                <Button
                  variant="secondary"
                  className="btn-small"
                  disabled={i === 0 || order.isPending}
                  onClick={() => move(i, -1)}
                  aria-label={t('project.shotEarlier', { n: i + 1 })}
                >
                  ←
                </Button>
                <Button
                  variant="secondary"
                  className="btn-small"
                  disabled={i === shots.length - 1 || order.isPending}
                  onClick={() => move(i, 1)}
                  aria-label={t('project.shotLater', { n: i + 1 })}
                >
                  →
                </Button>
                <Button variant="danger" className="btn-small" busy={remove.isPending && remove.variables === s.id} onClick={() => remove.mutate(s.id)}>
                  {t('project.shotRemove')}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {shots.length < LIMITS.screenshots ? (
        <label className="btn btn-secondary file-button">
          {upload.isPending ? t('project.shotUploading') : t('project.shotAdd')}
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp"
            className="sr-only"
            data-testid="screenshot-input"
            disabled={upload.isPending}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) upload.mutate(file);
            }}
          />
        </label>
      ) : (
        <p className="small muted">{t('project.shotsFull', { max: LIMITS.screenshots })}</p>
      )}
    </section>
  );
}
