import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Db } from '../core/db/index.js';
import { newId } from '../core/ids.js';
import { iso } from '../core/time.js';
import { KEYS_PATH, SIGNATURE_ALGORITHM, type BundleSigner } from './bundle-verify.js';
import { findCurrentSigningKey, insertSigningKeyIfNone, listPublicSigningKeys, retireCurrentSigningKey } from './signing-keys-repo.js';

/**
 * The site's Ed25519 key that signs results bundles. Made on first need (the first publication),
 * kept in the database (result_signing_keys: the private half as PKCS#8, never logged nor served),
 * rotated by `hackathon results rotate-key`. Retired keys stay listed with their validity at
 * /.well-known/hackathon-results-keys.json, so the bundles they signed still verify.
 */

/** One key as the well-known document lists it. */
export interface PublishedSigningKey {
  key_id: string;
  algorithm: string;
  /** The raw 32-byte public key, base64url. */
  public_key: string;
  /** The same key as a JWK (RFC 8037). */
  jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string; alg: 'EdDSA'; use: 'sig' };
  created_at: string;
  /** Null for the current key; when it stopped signing, for a retired one. */
  retired_at: string | null;
}

export interface SigningKeysDocument {
  /** The site's address (PUBLIC_URL). */
  site: string;
  keys_url: string;
  keys: PublishedSigningKey[];
}

function newKeyRow(at: Date) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  return {
    id: newId('rsk', at.getTime()),
    algorithm: SIGNATURE_ALGORITHM,
    public_key: x,
    private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    created_at: iso(at),
  };
}

export function createResultSigner(deps: { db: Db; clock: Clock; publicUrl: string }) {
  const { db, clock } = deps;
  const keysUrl = `${deps.publicUrl}${KEYS_PATH}`;

  /**
   * The current key, made if there is none yet. Outside any publication's transaction: the key
   * must outlive a publication that fails, and two first publications at once settle on one key
   * through the unique constraint (the loser's insert does nothing; both read the winner's key).
   */
  async function current(): Promise<{ info: BundleSigner; sign: (text: string) => string }> {
    let row = await findCurrentSigningKey(db);
    if (!row) {
      await insertSigningKeyIfNone(db, newKeyRow(clock.now()));
      row = await findCurrentSigningKey(db);
      if (!row) throw new Error('no current results signing key after making one');
    }
    const privateKey = createPrivateKey({ key: Buffer.from(row.private_key, 'base64'), format: 'der', type: 'pkcs8' });
    return {
      info: { key_id: row.id, algorithm: row.algorithm, public_key: row.public_key, keys_url: keysUrl },
      sign: (text) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64url'),
    };
  }

  /** Retires the current key (its public half stays published) and makes a new one current. */
  async function rotate(): Promise<{ retired: string | null; current: string }> {
    const at = clock.now();
    const row = newKeyRow(at);
    const retired = await db.transaction().execute(async (tx) => {
      const old = await retireCurrentSigningKey(tx, iso(at));
      await insertSigningKeyIfNone(tx, row);
      return old;
    });
    const now = await findCurrentSigningKey(db);
    return { retired: retired ?? null, current: now?.id ?? row.id };
  }

  /** GET /.well-known/hackathon-results-keys.json: every key's public half and validity, oldest first. */
  async function document(): Promise<SigningKeysDocument> {
    const rows = await listPublicSigningKeys(db);
    return {
      site: deps.publicUrl,
      keys_url: keysUrl,
      keys: rows.map((r) => ({
        key_id: r.id,
        algorithm: r.algorithm,
        public_key: r.public_key,
        jwk: { kty: 'OKP', crv: 'Ed25519', x: r.public_key, kid: r.id, alg: 'EdDSA', use: 'sig' },
        created_at: r.created_at,
        retired_at: r.retired_at,
      })),
    };
  }

  return { keysUrl, current, rotate, document };
}

export type ResultSigner = ReturnType<typeof createResultSigner>;
