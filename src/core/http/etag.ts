/** Whether an If-None-Match header matches `etag` (weak comparison, as RFC 9110 prescribes for it). */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  const want = opaque(etag);
  return header.split(',').some((t) => t.trim() === '*' || opaque(t) === want);
}
