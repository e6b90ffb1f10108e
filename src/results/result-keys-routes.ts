import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from 'typebox';
import type { App } from '../core/http/app-types.js';
import { ifNoneMatch } from '../core/http/etag.js';
import { AppError } from '../core/errors.js';
import { problems } from '../core/http/schemas.js';
import { NotModified } from './results-schemas.js';
import { KEYS_PATH } from './bundle-verify.js';
import type { ResultSigner } from './result-signing.js';

export interface ResultKeysRoutesDeps {
  resultSigner: ResultSigner;
}

/** Public and cheap: no key needed, not counted against rate limits, readable with a review key. */
const ROUTE_CONFIG = { skipRateLimit: true, reviewKeyAllowed: true } as const;

/** The file scripts/build-verifier.mjs writes: dist/verify-bundle.mjs beside dist/results (or the source tree's dist). */
export function verifierPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // Two levels up from both dist/results and src/results is the package root.
  return resolve(here, '../../dist/verify-bundle.mjs');
}

const PublishedKeySchema = Type.Object({
  key_id: Type.String({ description: 'the id a bundle names in signer.key_id' }),
  algorithm: Type.String({ description: 'Ed25519' }),
  public_key: Type.String({ description: 'the raw 32-byte public key, base64url (the JWK x)' }),
  jwk: Type.Object(
    { kty: Type.String(), crv: Type.String(), x: Type.String(), kid: Type.String(), alg: Type.String(), use: Type.String() },
    { description: 'the same key as a JWK (RFC 8037)' },
  ),
  created_at: Type.String(),
  retired_at: Type.Union([Type.String(), Type.Null()], { description: 'null for the current key; when a retired key stopped signing' }),
});

const KeysDocumentSchema = Type.Object(
  {
    site: Type.String({ description: "the site's address" }),
    keys_url: Type.String(),
    keys: Type.Array(PublishedKeySchema, { description: 'every key that ever signed a bundle here, oldest first; empty before the first publication' }),
  },
  { description: "The site's results-bundle signing keys" },
);

/**
 * `{site_url}/.well-known/hackathon-results-keys.json` (the public keys that sign results bundles,
 * retired ones included) and `{site_url}/verify-bundle.mjs` (the single-file verifier: `node
 * verify-bundle.mjs bundle.json --site URL`, built from bundle-verify*.ts by scripts/build-verifier.mjs).
 */
export function resultKeysRoutes(ctx: ResultKeysRoutesDeps) {
  const { resultSigner } = ctx;
  let verifier: { body: string; etag: string } | null = null;
  return async function plugin(app: App) {
    app.get(
      KEYS_PATH,
      {
        config: ROUTE_CONFIG,
        schema: {
          tags: ['results'],
          summary: "The site's public keys that sign results bundles (Ed25519; retired keys stay listed so old bundles verify)",
          response: { 200: KeysDocumentSchema, ...problems(401) },
        },
      },
      async (_request, reply) => {
        // Short: after a rotation, new bundles name the new key, which a cached copy would lack.
        reply.header('Cache-Control', 'public, max-age=60');
        return resultSigner.document();
      },
    );

    app.get(
      '/verify-bundle.mjs',
      {
        config: ROUTE_CONFIG,
        schema: {
          tags: ['results'],
          summary:
            'The single-file results bundle verifier (Node 20+, no dependencies): `node verify-bundle.mjs bundle.json --site URL` checks the signature, the hash and the ranking, and that the site serves the same bundle',
          response: {
            200: { description: 'An ES module', content: { 'text/javascript': { schema: Type.String() } } },
            304: NotModified,
            ...problems(401, 'not_found'),
          },
        },
      },
      async (request, reply) => {
        if (verifier === null) {
          let body: string;
          try {
            body = await readFile(verifierPath(), 'utf8');
          } catch {
            throw new AppError('not_found', 'The verifier is not built on this server (npm run build:server makes dist/verify-bundle.mjs).');
          }
          verifier = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
        }
        reply.header('ETag', verifier.etag).header('Cache-Control', 'public, max-age=300');
        if (ifNoneMatch(request.headers['if-none-match'], verifier.etag)) return reply.code(304).send();
        return reply.type('text/javascript; charset=utf-8').send(verifier.body);
      },
    );
  };
}
