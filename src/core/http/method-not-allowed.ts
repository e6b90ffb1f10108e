import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';

/**
 * Which methods a path answers to, for the "not found" handler: a known path asked with a method
 * it does not take is `405 method_not_allowed` with an `Allow` header (RFC 9110 §15.5.6), not a 404.
 * Fastify's router says only "no route"; this keeps its own index of every route as it is added
 * (the `onRoute` hook, so install it before any route), with the same router options.
 */
export interface AllowedMethods {
  /** The methods some route takes for this path (without the query), sorted; empty for an unknown path. */
  allowedFor(path: string): string[];
}

export function trackAllowedMethods(app: FastifyInstance, opts: { ignoreTrailingSlash: boolean; maxParamLength: number }): AllowedMethods {
  const router = FindMyWay({ ignoreTrailingSlash: opts.ignoreTrailingSlash, maxParamLength: opts.maxParamLength });
  const methods = new Set<string>();
  const noop = () => {};
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      // HEAD routes Fastify adds for GET ones also pass through here; a duplicate is no news.
      if (router.hasRoute(method as never, route.url)) continue;
      router.on(method as never, route.url, noop);
      methods.add(method);
    }
  });
  return {
    allowedFor(path) {
      return [...methods].filter((m) => router.find(m as never, path) !== null).sort();
    },
  };
}
