import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/index.js';
import { ERROR_CATALOG } from '../error-catalog.js';
import { AppError, toProblem, validationError } from '../errors.js';
import type { AllowedMethods } from './method-not-allowed.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import type { RequestOutageLog } from './request-outage.js';
import { ajvToFieldErrors } from './validation.js';

/**
 * Seconds a client is asked to wait after `database_unavailable`: a dropped connection is replaced
 * at once, a restart takes a few seconds.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Maps anything thrown to an AppError: client mistakes keep their 4xx, the unknown becomes 500. */
export function toAppError(err: FastifyError | AppError | Error): AppError {
  if (err instanceof AppError) return err;
  const e = err as FastifyError;
  if (e.validation) return validationError(ajvToFieldErrors(e.validation as never, e.validationContext));
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is larger than the limit.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Send the body as application/json.');
    // Router errors, reported through Fastify's frameworkErrors before any route runs.
    case 'FST_ERR_BAD_URL':
      return new AppError('bad_request', 'The URL is not validly percent-encoded.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('uri_too_long', 'A path segment of the URL is longer than the server accepts.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('bad_request', e.message);
  }
  if (err instanceof SyntaxError || (e.statusCode === 400 && /JSON/i.test(e.message))) {
    return new AppError('bad_request', `The body is not valid JSON: ${e.message}`);
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.statusCode === 413) return new AppError('payload_too_large', e.message);
    if (e.statusCode === 415) return new AppError('unsupported_media_type', e.message);
    if (e.statusCode === 404) return new AppError('not_found', e.message);
    if (e.statusCode === 408) return new AppError('request_timeout', e.message);
    if (e.statusCode === 414) return new AppError('uri_too_long', e.message);
    return new AppError('bad_request', e.message);
  }
  if (isDatabaseUnavailable(err)) {
    return new AppError('database_unavailable', 'The database is unreachable or did not answer in time; retry after the Retry-After interval.');
  }
  return new AppError('internal_error', 'Something went wrong on our side; it has been logged.');
}

/**
 * The problem document of an error, with what to do next (`action`: the sentence of its problem page,
 * as MCP refusals carry it) and the request's id (`request_id`, also the `X-Request-Id` header).
 */
export function sendProblem(reply: FastifyReply, request: FastifyRequest, appErr: AppError, siteUrl: string): FastifyReply {
  // An error may carry its own next step (`extra.action`) where the code's general advice would mislead.
  const action = typeof appErr.extra?.action === 'string' ? appErr.extra.action : ERROR_CATALOG[appErr.code].action;
  const body: Record<string, unknown> = { ...toProblem(appErr, siteUrl), action, request_id: request.id };
  reply.header(REQUEST_ID_HEADER, request.id);
  // Router errors come before any route is matched: there are no route options then.
  if (request.routeOptions?.config?.envelope) body.success = false;
  // Refused before its body arrived (no key, unknown route): close rather than keep reading a body
  // nobody wants, which would hold the socket until the request time limit.
  if (!request.raw.complete) reply.header('connection', 'close');
  if (appErr.code === 'database_unavailable') reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
  else if (appErr.retryAfterSeconds !== undefined) reply.header('retry-after', appErr.retryAfterSeconds);
  // A limit that says when it ends (the sign-in lockout and the other password checks): so does the header.
  else if (appErr.code === 'rate_limited' && typeof appErr.extra?.retry_after === 'number') reply.header('retry-after', appErr.extra.retry_after);
  return reply.status(appErr.status).type('application/problem+json').send(body);
}

/**
 * Server faults are logged with their stack. An outage of the database is expected, not a bug: it
 * is logged once per outage at warn, without a stack (see request-outage.ts).
 */
function logFailure(request: FastifyRequest, appErr: AppError, err: Error, outage: RequestOutageLog | undefined): void {
  if (appErr.code === 'database_unavailable') {
    if (outage) outage.failed(request.log, err.message);
    else request.log.warn({ reason: err.message }, 'request failed: database unavailable');
  } else if (appErr.status >= 500) request.log.error({ err }, 'request failed');
}

/** Fastify's frameworkErrors option: router errors answer problem+json like every other error. */
export function createFrameworkErrorHandler(siteUrl: string, outage?: RequestOutageLog) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const appErr = toAppError(err);
    logFailure(request, appErr, err, outage);
    // These replies skip the app's onSend hooks, which set nosniff on every other answer.
    reply.header('x-content-type-options', 'nosniff');
    sendProblem(reply, request, appErr, siteUrl);
  };
}

/**
 * Answers a request the router does not know with a page instead of problem+json, when it is a
 * browser's navigation (the web app draws its own "not found"); returns false to leave it to the API.
 */
export type PageFallback = (request: FastifyRequest, reply: FastifyReply) => boolean;

export function installErrorHandling(
  app: FastifyInstance,
  siteUrl: string,
  pageFallback?: PageFallback,
  allowed?: AllowedMethods,
  outage?: RequestOutageLog,
): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    const appErr = toAppError(err);
    logFailure(request, appErr, err, outage);
    return sendProblem(reply, request, appErr, siteUrl);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allow = allowed?.allowedFor(path) ?? [];
    if (allow.length > 0) {
      reply.header('allow', allow.join(', '));
      return sendProblem(reply, request, new AppError('method_not_allowed', `${path} takes ${allow.join(', ')}, not ${request.method}.`), siteUrl);
    }
    if (pageFallback?.(request, reply)) return reply;
    return sendProblem(reply, request, new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`), siteUrl);
  });
}
