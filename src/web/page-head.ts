import { escapeHtml } from '../core/html.js';

/** What a page's <head> says before any script runs: its title and the link-preview (Open Graph, Twitter) tags. */
export interface PageHead {
  title: string;
  description: string;
  /** The page's canonical address (PUBLIC_URL + path). */
  url: string;
  /** The preview image (absolute URL): the event's cover, else the site's logo; null for none. */
  image?: string | null;
}

/** What the head says of a public event (and of one of its public projects). */
export interface EventHead {
  name: string;
  description: string;
  /** The event's cover image (absolute URL), or null. */
  cover: string | null;
}

export interface PageHeadSource {
  siteName: string;
  /** Whether the operator named the site (SITE_NAME): then the pages use that name in every language. */
  siteNameSet: boolean;
  publicUrl: string;
  tagline: string;
  /** The site's logo as an absolute URL (SITE_LOGO_URL / SITE_LOGO_FILE), or null. */
  siteLogo?: string | null;
  /** A public event's name, plain-text description and cover; null for unknown, draft or hidden events. */
  event(id: string): Promise<EventHead | null>;
  /** A project of an event's public gallery: its name and plain-text description; null when not public. */
  project?(eventId: string, projectId: string): Promise<{ name: string; description: string } | null>;
}

const ID = '[A-Za-z0-9_-]{1,64}';
const EVENT_PAGE = new RegExp(`^/hackathons/(${ID})(?:/(result|gallery)|/projects/(${ID}))?/?$`);

/**
 * The head of one page address: events, their results, gallery and projects are described by the
 * event (so a shared link previews it, with its cover); every other page by the site. Only what the
 * public may read is used.
 */
export async function headFor(path: string, source: PageHeadSource): Promise<PageHead> {
  // Only a described page names its own address: other paths may carry secrets (an invitation's
  // token is in its path), and their preview is the site's anyway.
  const site = { title: source.siteName, description: source.tagline, url: `${source.publicUrl}/`, image: source.siteLogo ?? null };
  const m = EVENT_PAGE.exec(path);
  if (!m) return site;
  const event = await source.event(m[1]!).catch(() => null);
  if (!event) return site;
  const image = event.cover ?? site.image;
  const url = `${source.publicUrl}${path}`;
  if (m[3]) {
    const project = source.project ? await source.project(m[1]!, m[3]).catch(() => null) : null;
    if (!project) return { ...site, image };
    return {
      title: `${project.name} · ${event.name} · ${source.siteName}`,
      description: project.description || event.description || source.tagline,
      url,
      image,
    };
  }
  const name = m[2] === 'result' ? `Results: ${event.name}` : m[2] === 'gallery' ? `Projects: ${event.name}` : event.name;
  return { title: `${name} · ${source.siteName}`, description: event.description || source.tagline, url, image };
}

/** The index page with the head's title and meta tags in place of its default title. */
export function withHead(index: string, head: PageHead, source: Pick<PageHeadSource, 'siteName' | 'siteNameSet' | 'siteLogo'>): string {
  const e = escapeHtml;
  const image = head.image ?? null;
  const tags = [
    `<title>${e(head.title)}</title>`,
    `<meta name="description" content="${e(head.description)}" />`,
    source.siteNameSet ? `<meta name="site-name" content="${e(source.siteName)}" />` : '',
    source.siteLogo ? `<meta name="site-logo" content="${e(source.siteLogo)}" />` : '',
    `<meta property="og:site_name" content="${e(source.siteName)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:title" content="${e(head.title)}" />`,
    `<meta property="og:description" content="${e(head.description)}" />`,
    `<meta property="og:url" content="${e(head.url)}" />`,
    image ? `<meta property="og:image" content="${e(image)}" />` : '',
    `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${e(head.title)}" />`,
    `<meta name="twitter:description" content="${e(head.description)}" />`,
    image ? `<meta name="twitter:image" content="${e(image)}" />` : '',
  ]
    .filter(Boolean)
    .join('\n    ');
  return index.replace(/<title>[^<]*<\/title>/, () => tags);
}
