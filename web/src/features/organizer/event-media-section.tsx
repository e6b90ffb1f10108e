import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useT } from '../../i18n';
import { del, mediaPath, putFile } from '../../lib/api';
import { Button } from '../../ui/controls';
import { ProblemAlert } from '../../ui/states';
import type { EventDoc } from './event-form-payload';
import { formMessages } from './form-messages';

type Kind = 'cover' | 'logo';

/** What a page may upload: the server checks the bytes again (this only spares a round trip). */
const ACCEPT = 'image/png,image/jpeg,image/webp';

/**
 * The event's cover image and logo: a preview of each, a file picker that uploads at once, and a
 * remove button. Outside the event's form: each upload is its own request (PUT /events/{id}/media/{kind}).
 */
export function EventMediaSection({ event, onChanged, disabled }: { event: EventDoc; onChanged: () => void; disabled: boolean }) {
  const { t } = useT('organizer-form', formMessages);
  return (
    <section className="card event-form-section" id="ev-media" aria-labelledby="ev-media-title">
      <h2 id="ev-media-title">{t('media.title')}</h2>
      <p className="muted small">{t('media.hint')}</p>
      <div className="event-media-grid">
        <MediaControl event={event} kind="cover" url={event.cover_url} onChanged={onChanged} disabled={disabled} />
        <MediaControl event={event} kind="logo" url={event.logo_url} onChanged={onChanged} disabled={disabled} />
      </div>
    </section>
  );
}

function MediaControl({
  event,
  kind,
  url,
  onChanged,
  disabled,
}: {
  event: EventDoc;
  kind: Kind;
  url: string | null;
  onChanged: () => void;
  disabled: boolean;
}) {
  const { t } = useT('organizer-form', formMessages);
  const client = useQueryClient();
  const inputId = useId();
  const [error, setError] = useState<unknown>(null);
  const done = () => {
    setError(null);
    void client.invalidateQueries({ queryKey: ['events'] });
    void client.invalidateQueries({ queryKey: ['public-event', event.id] });
    onChanged();
  };
  const upload = useMutation({
    mutationFn: (file: File) => putFile('/events/{id}/media/{kind}', { id: event.id, kind }, file, { filename: file.name }),
    onSuccess: done,
    onError: setError,
  });
  const remove = useMutation({
    mutationFn: () => del('/events/{id}/media/{kind}', { path: { id: event.id, kind } }),
    onSuccess: done,
    onError: setError,
  });
  const src = mediaPath(url);
  const busy = upload.isPending || remove.isPending;
  return (
    <div className={`event-media event-media-${kind}`}>
      <h3>{t(`media.${kind}`)}</h3>
      <div className="event-media-preview">
        {src ? <img src={src} alt={t(`media.${kind}Preview`)} data-testid={`media-preview-${kind}`} /> : <p className="muted small">{t('media.none')}</p>}
      </div>
      <p className="muted small" id={`${inputId}-hint`}>
        {t(`media.${kind}Hint`)}
      </p>
      <div className="row">
        {/* The native picker's own words follow the browser's language, not the page's: a labelled button instead. */}
        <label className={`btn btn-secondary btn-small event-media-pick${disabled || busy ? ' is-disabled' : ''}`}>
          {src ? t(`media.${kind}Replace`) : t(`media.${kind}Upload`)}
          <input
            className="sr-only"
            type="file"
            accept={ACCEPT}
            disabled={disabled || busy}
            aria-describedby={`${inputId}-hint`}
            data-testid={`media-input-${kind}`}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (file) upload.mutate(file);
            }}
          />
        </label>
        {src ? (
          <Button variant="secondary" className="btn-small" busy={remove.isPending} disabled={disabled || busy} onClick={() => remove.mutate()}>
            {t('media.remove')}
          </Button>
        ) : null}
      </div>
      <div role="status" aria-live="polite">
        {upload.isPending ? <p className="muted small">{t('media.uploading')}</p> : null}
      </div>
      <ProblemAlert error={error} />
    </div>
  );
}
