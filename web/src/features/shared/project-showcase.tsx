import { useState } from 'react';
import { useT } from '../../i18n';
import { mediaPath } from '../../lib/api';
import { messages } from './project-showcase-messages';
import './project-showcase.css';

export interface ShowcaseVideo {
  provider: 'youtube' | 'vimeo' | 'loom' | 'bilibili';
  url: string;
  embed_url: string;
}
export interface ShowcaseShot {
  id: string;
  url: string;
  width: number;
  height: number;
}

const HOSTS: Record<ShowcaseVideo['provider'], string> = { youtube: 'YouTube', vimeo: 'Vimeo', loom: 'Loom', bilibili: 'Bilibili' };

/**
 * A demo video as a poster with a play button: the player (an iframe of the host) is created only
 * when the visitor presses it, so nothing is loaded from a third party before (the page's CSP allows
 * frames from exactly these hosts).
 */
export function ClickToLoadVideo({ video }: { video: ShowcaseVideo }) {
  const { t } = useT('project-showcase', messages);
  const [playing, setPlaying] = useState(false);
  const host = HOSTS[video.provider];
  if (playing) {
    return (
      <div className="video-frame">
        <iframe
          src={video.embed_url}
          title={t('video.frame')}
          allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          data-testid="video-iframe"
        />
      </div>
    );
  }
  return (
    <div className="video-frame video-poster">
      <button type="button" className="video-play" onClick={() => setPlaying(true)} data-testid="video-play">
        <span className="video-play-icon" aria-hidden="true">
          ▶
        </span>
        <span>{t('video.play', { host })}</span>
      </button>
      <p className="video-notice small">
        {t('video.notice', { host })}{' '}
        <a href={video.url} rel="noopener nofollow ugc" target="_blank">
          {t('video.open')}
        </a>
      </p>
    </div>
  );
}

/** A project's screenshots as a responsive grid; each opens in full size. */
export function ScreenshotGrid({ shots, name }: { shots: ShowcaseShot[]; name: string }) {
  const { t } = useT('project-showcase', messages);
  if (shots.length === 0) return null;
  return (
    <ul className="shot-grid" data-testid="screenshots">
      {shots.map((s, i) => {
        const src = mediaPath(s.url) ?? '';
        return (
          <li key={s.id}>
            <a href={src} target="_blank" rel="noopener" aria-label={t('shots.enlarge', { n: i + 1 })}>
              <img src={src} alt={t('shots.alt', { n: i + 1, name })} width={s.width} height={s.height} loading="lazy" />
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** "Built with" tags as chips. */
export function TagList({ tags }: { tags: string[] }) {
  const { t } = useT('project-showcase', messages);
  if (tags.length === 0) return null;
  return (
    <ul className="tag-list" aria-label={t('tags.title')} data-testid="tags">
      {tags.map((tag) => (
        <li key={tag} className="tag-chip">
          {tag}
        </li>
      ))}
    </ul>
  );
}

/** The section titles, for pages that head these parts. */
export function useShowcaseTitles() {
  const { t } = useT('project-showcase', messages);
  return { video: t('video.title'), shots: t('shots.title'), tags: t('tags.title') };
}
