/**
 * Whether an error says the database could not be reached or could not take the statement right
 * now (so the same statement may succeed later), as opposed to a statement the database refused
 * (a constraint, a bug), which fails the same way every time.
 *
 * PostgreSQL: SQLSTATE class 08 (connection exception), 57P01-57P03 (server shutting down, crashed,
 * starting), 53300 (too many connections), 57014 (statement timeout or cancel), 40001/40P01
 * (serialization failure, deadlock); the socket's own errors (refused, reset, timed out) and the
 * `pg` client's messages for a connection that ended. SQLite: the database locked by another
 * connection past the busy timeout, an I/O error, a full disk.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^08/.test(code) || ['57P01', '57P02', '57P03', '53300', '57014', '40001', '40P01'].includes(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND'].includes(code)) return true;
    if (/^SQLITE_(BUSY|LOCKED|IOERR|FULL)/.test(code)) return true;
  }
  return /Connection terminated|connection error|timeout exceeded when trying to connect|Query read timeout|not queryable/i.test(err.message);
}
