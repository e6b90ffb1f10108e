import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, toProblem, validationError } from '../errors.js';
import { ajvToFieldErrors } from './validation.js';

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
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('bad_request', e.message);
    // Raised by the router before any route runs (see frameworkErrors in app.ts).
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('uri_too_long', 'A path segment of the URL is too long.');
    case 'FST_ERR_BAD_URL':
      return new AppError('bad_request', 'The URL is not valid (bad percent-encoding).');
  }
  if (err instanceof SyntaxError || (e.statusCode === 400 && /JSON/i.test(e.message))) {
    return new AppError('bad_request', `The body is not valid JSON: ${e.message}`);
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.statusCode === 413) return new AppError('payload_too_large', e.message);
    if (e.statusCode === 415) return new AppError('unsupported_media_type', e.message);
    if (e.statusCode === 404) return new AppError('not_found', e.message);
    return new AppError('bad_request', e.message);
  }
  return new AppError('internal_error', 'Something went wrong on our side; it has been logged.');
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, appErr: AppError, siteUrl: string): FastifyReply {
  const body: Record<string, unknown> = { ...toProblem(appErr, siteUrl) };
  if (request.routeOptions.config?.envelope) body.success = false;
  return reply.status(appErr.status).type('application/problem+json').send(body);
}

export function installErrorHandling(app: FastifyInstance, siteUrl: string): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    const appErr = toAppError(err);
    if (appErr.status >= 500) request.log.error({ err }, 'request failed');
    return sendProblem(reply, request, appErr, siteUrl);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, request, new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`), siteUrl),
  );
}
