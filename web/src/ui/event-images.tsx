import { mediaPath } from '../lib/api';

/**
 * An event's cover image (a wide banner) and logo, as the API serves them (cover_url / logo_url,
 * on this site, so the pages' img-src 'self' allows them). Decorative next to the event's name,
 * which always follows in text: empty alt unless `alt` is given.
 */
export function EventCover({ url, className, alt = '' }: { url: string | null | undefined; className?: string; alt?: string }) {
  const src = mediaPath(url);
  if (!src) return null;
  return (
    <div className={`event-cover${className ? ` ${className}` : ''}`}>
      <img src={src} alt={alt} loading="lazy" decoding="async" />
    </div>
  );
}

export function EventLogo({ url, className, alt = '' }: { url: string | null | undefined; className?: string; alt?: string }) {
  const src = mediaPath(url);
  if (!src) return null;
  return <img className={`event-logo${className ? ` ${className}` : ''}`} src={src} alt={alt} loading="lazy" decoding="async" width={48} height={48} />;
}
