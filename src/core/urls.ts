/** True for an absolute http(s) URL with a host; everything else (javascript:, relative, ftp:) is refused. */
export function isHttpUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * A GitHub repository URL: `https://github.com/<owner>/<repo>`, optionally ending in `.git` or `/`.
 * One source for the schema's `pattern` and the server's own check (the same text, so a schema
 * validator and the server accept exactly the same strings).
 */
export const GITHUB_REPO_URL_PATTERN = '^https://github\\.com/[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/(?!\\.\\.?(?:\\.git)?/?$)[A-Za-z0-9._-]{1,100}/?$';
const githubRepoUrl = new RegExp(GITHUB_REPO_URL_PATTERN, 'u');

export function isGithubRepoUrl(raw: string): boolean {
  return githubRepoUrl.test(raw);
}

/** What a refused `github_url` is told. */
export const GITHUB_URL_MESSAGE = 'must be a GitHub repository URL, https://github.com/<owner>/<repo>';
