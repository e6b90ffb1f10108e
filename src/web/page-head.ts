import { escapeHtml } from '../core/html.js';

/** What a page's <head> says before any script runs: its title and the link-preview (Open Graph, Twitter) tags. */
export interface PageHead {
  title: string;
  description: string;
  /** The page's canonical address (PUBLIC_URL + path). */
  url: string;
}

export interface PageHeadSource {
  siteName: string;
  /** Whether the operator named the site (SITE_NAME): then the pages use that name in every language. */
  siteNameSet: boolean;
  publicUrl: string;
  tagline: string;
  /** A public event's name and plain-text description; null for unknown, draft or hidden events. */
  event(id: string): Promise<{ name: string; description: string } | null>;
}

/**
 * The head of one page address: events and their results are described by the event (so a shared
 * link previews it); every other page by the site. Only what the public may read is used.
 */
export async function headFor(path: string, source: PageHeadSource): Promise<PageHead> {
  // Only a described page names its own address: other paths may carry secrets (an invitation's
  // token is in its path), and their preview is the site's anyway.
  const site = { title: source.siteName, description: source.tagline, url: `${source.publicUrl}/` };
  const m = /^\/hackathons\/([A-Za-z0-9_-]{1,64})(\/result)?\/?$/.exec(path);
  if (!m) return site;
  const event = await source.event(m[1]!).catch(() => null);
  if (!event) return site;
  const name = m[2] ? `Results: ${event.name}` : event.name;
  return { title: `${name} · ${source.siteName}`, description: event.description || source.tagline, url: `${source.publicUrl}${path}` };
}

/** The index page with the head's title and meta tags in place of its default title. */
export function withHead(index: string, head: PageHead, source: Pick<PageHeadSource, 'siteName' | 'siteNameSet'>): string {
  const e = escapeHtml;
  const tags = [
    `<title>${e(head.title)}</title>`,
    `<meta name="description" content="${e(head.description)}" />`,
    source.siteNameSet ? `<meta name="site-name" content="${e(source.siteName)}" />` : '',
    `<meta property="og:site_name" content="${e(source.siteName)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:title" content="${e(head.title)}" />`,
    `<meta property="og:description" content="${e(head.description)}" />`,
    `<meta property="og:url" content="${e(head.url)}" />`,
    `<meta name="twitter:card" content="summary" />`,
    `<meta name="twitter:title" content="${e(head.title)}" />`,
    `<meta name="twitter:description" content="${e(head.description)}" />`,
  ]
    .filter(Boolean)
    .join('\n    ');
  return index.replace(/<title>[^<]*<\/title>/, () => tags);
}
