import { createPublicKey } from 'node:crypto';
import { parseArgs } from 'node:util';
import { canonicalJson } from '../core/canonical-json.js';
import { BundleFormatError, KEYS_PATH, SIGNATURE_ALGORITHM, verifyBundle, type BundleVerdict, type PublishedKey } from './bundle-verify.js';

/**
 * `hackathon results verify` and the site's single-file verifier (`node verify-bundle.mjs`, built
 * from this module by scripts/build-verifier.mjs): the same arguments, checks, output and exit
 * codes. Exit 0 verified, 1 not verified (the last line says why), 64 usage, 65 not a bundle (or
 * an unusable --key), 66 the file cannot be read.
 */

export function verifyUsage(program: string): string {
  return `Usage: ${program} <bundle.json | -> [--site URL] [--key KEYS] [--allow-unsigned]

Checks a results bundle (GET {site}/api/v1/events/{id}/result/bundle): its sha256, the ranking
recomputed from its scores alone, and its Ed25519 signature under the site's key.
  --site URL        the site's address: its keys are read from URL${KEYS_PATH}, and the bundle the
                    site serves for the event must be the same (canonical JSON)
  --key KEYS        the site's keys without asking it: a file (the well-known keys document, a JWK
                    or a PEM public key) or a public key (base64url, 32 bytes)
  --allow-unsigned  accept a bundle published before bundles were signed (integrity only)
A signature is only worth something under a key you got from the site (--site or --key): checked
against the key the bundle carries alone, it proves nothing.
Exit 0 verified, 1 not verified (the last line says why), 64 usage, 65 not a bundle, 66 unreadable.`;
}

export interface VerifyIo {
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
  fetch(url: string): Promise<{ status: number; text(): Promise<string> }>;
  out(text: string): void;
  err(text: string): void;
}

class Exit extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The keys in a --key value's text: a keys document (or JWK set), a JWK, a PEM public key, or a bare base64(url) key. */
export function parseKeys(text: string): PublishedKey[] {
  const t = text.trim();
  if (t.startsWith('{')) {
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(t) as Record<string, unknown>;
    } catch (err) {
      throw new Exit(`--key: not JSON: ${(err as Error).message}`, 65);
    }
    const list = Array.isArray(doc['keys']) ? (doc['keys'] as unknown[]) : [doc];
    return list.map((entry) => {
      const k = (entry ?? {}) as Record<string, unknown>;
      const jwk = (k['jwk'] ?? {}) as Record<string, unknown>;
      const publicKey = str(k['public_key']) ?? str(k['x']) ?? str(jwk['x']);
      if (publicKey === null) throw new Exit('--key: a key without public_key (or JWK x)', 65);
      const crv = str(k['crv']);
      return {
        key_id: str(k['key_id']) ?? str(k['kid']),
        algorithm: str(k['algorithm']) ?? (crv === null || crv === SIGNATURE_ALGORITHM ? SIGNATURE_ALGORITHM : crv),
        public_key: publicKey,
        created_at: str(k['created_at']),
        retired_at: str(k['retired_at']),
      };
    });
  }
  if (t.startsWith('-----BEGIN')) {
    try {
      const key = createPublicKey(t);
      if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ${key.asymmetricKeyType ?? 'non-Ed25519'} key`);
      return [{ key_id: null, algorithm: SIGNATURE_ALGORITHM, public_key: key.export({ format: 'jwk' }).x! }];
    } catch (err) {
      throw new Exit(`--key: not an Ed25519 public key: ${(err as Error).message}`, 65);
    }
  }
  const raw = Buffer.from(t.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), 'base64url');
  if (raw.length !== 32 || !/^[A-Za-z0-9+/_=-]+$/.test(t)) throw new Exit('--key: neither a readable file nor a 32-byte public key in base64(url)', 65);
  return [{ key_id: null, algorithm: SIGNATURE_ALGORITHM, public_key: raw.toString('base64url') }];
}

async function fetchText(io: VerifyIo, url: string): Promise<{ status: number; text: string }> {
  try {
    const res = await io.fetch(url);
    return { status: res.status, text: await res.text() };
  } catch (err) {
    throw new Exit(`cannot reach ${url}: ${(err as Error).message}`, 1);
  }
}

/** The site's keys, from its well-known document. */
async function siteKeys(io: VerifyIo, site: string): Promise<PublishedKey[]> {
  const url = `${site}${KEYS_PATH}`;
  const res = await fetchText(io, url);
  if (res.status !== 200) throw new Exit(`NOT VERIFIED: the site's keys are not at ${url} (HTTP ${res.status})`, 1);
  try {
    return parseKeys(res.text);
  } catch (err) {
    throw new Exit(`NOT VERIFIED: ${url} is not a keys document: ${(err as Error).message}`, 1);
  }
}

function describeKey(key: PublishedKey): string {
  const when = [key.created_at ? `created ${key.created_at}` : null, key.retired_at ? `retired ${key.retired_at}` : key.created_at ? 'current' : null].filter(
    Boolean,
  );
  return when.length ? ` (${when.join(', ')})` : '';
}

function signatureLine(v: BundleVerdict, source: string | null): string {
  const s = v.signature;
  switch (s.status) {
    case 'unsigned':
      return 'signature: none (a bundle published before results were signed)';
    case 'invalid':
      return `signature: INVALID: ${s.detail}`;
    case 'unknown_key':
      return `signature: NOT THE SITE'S KEY: ${s.detail}`;
    case 'self_signed':
      return `signature: valid for the public key the bundle itself carries (${s.keyId}), which alone proves nothing: anyone can sign with a key of their own`;
    case 'trusted':
      return `signature: ok: ${SIGNATURE_ALGORITHM}, the site's key ${s.keyId} from ${source ?? '--key'}${describeKey(s.key)}`;
  }
}

/** Runs the verifier on argv (without the program name); returns the exit code. */
export async function runVerify(argv: string[], io: VerifyIo, program = 'hackathon results verify'): Promise<number> {
  try {
    return await verify(argv, io, program);
  } catch (err) {
    if (!(err instanceof Exit)) throw err;
    if (err.code === 1) io.out(err.message.startsWith('NOT VERIFIED') ? err.message : `NOT VERIFIED: ${err.message}`);
    else io.err(`${program}: ${err.message}`);
    return err.code;
  }
}

async function verify(argv: string[], io: VerifyIo, program: string): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { site: { type: 'string' }, key: { type: 'string' }, 'allow-unsigned': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new Exit(`${(err as Error).message}\n${verifyUsage(program)}`, 64);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(verifyUsage(program));
    return 0;
  }
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new Exit(`one bundle file (or - for stdin)\n${verifyUsage(program)}`, 64);
  let site: string | null = null;
  if (values.site !== undefined) {
    try {
      const u = new URL(values.site);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
      site = values.site.replace(/\/+$/, '');
    } catch {
      throw new Exit(`--site must be the site's http(s) address, e.g. https://hackathon.example.org (got ${JSON.stringify(values.site)})`, 64);
    }
  }

  let text: string;
  try {
    text = file === '-' ? await io.readStdin() : await io.readFile(file);
  } catch (err) {
    throw new Exit(`cannot read ${file}: ${(err as Error).message}`, 66);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Exit(`${file} is not JSON: ${(err as Error).message}`, 65);
  }

  let keys: PublishedKey[] | null = null;
  let source: string | null = null;
  if (values.key !== undefined) {
    let keyText = values.key;
    try {
      keyText = await io.readFile(values.key);
    } catch {
      // not a file: the key itself
    }
    keys = parseKeys(keyText);
  }
  if (site !== null) {
    keys = [...(keys ?? []), ...(await siteKeys(io, site))];
    source = `${site}${KEYS_PATH}`;
  }

  let verdict: BundleVerdict;
  try {
    verdict = verifyBundle(raw, { keys, allowUnsigned: values['allow-unsigned'] === true });
  } catch (err) {
    if (err instanceof BundleFormatError) throw new Exit(`${file}: ${err.message}`, 65);
    throw err;
  }
  const bundle = raw as { event: { id: string }; signer?: { keys_url: string } };
  const out: string[] = [];
  out.push(
    verdict.sha256.ok
      ? `sha256: ok (${verdict.sha256.computed})`
      : `sha256: MISMATCH: the bundle states ${verdict.sha256.stated ?? '(none)'}, its canonical JSON without sha256 and signature hashes to ${verdict.sha256.computed}`,
  );
  const diff = verdict.ranking.firstDifference;
  out.push(
    diff === null
      ? `ranking: ok (${verdict.ranking.entries} entries recomputed from the scores)`
      : `ranking: MISMATCH at entry ${diff.index + 1}:\n  bundle:     ${JSON.stringify(diff.stated)}\n  recomputed: ${JSON.stringify(diff.recomputed)}`,
  );
  if (verdict.winners !== null) {
    out.push(
      verdict.winners.ok
        ? `winners: ok (recomputed from the ranking and the tracks)`
        : `winners: MISMATCH:\n  bundle:     ${JSON.stringify(verdict.winners.stated)}\n  recomputed: ${JSON.stringify(verdict.winners.recomputed)}`,
    );
  }
  out.push(signatureLine(verdict, source));
  if (verdict.signature.status === 'self_signed' && bundle.signer)
    out.push(`  (the bundle names ${bundle.signer.keys_url}: pass --site with the site's address to check the key is the site's)`);
  let reason = verdict.reason;

  if (site !== null) {
    const url = `${site}/api/v1/events/${encodeURIComponent(bundle.event.id)}/result/bundle`;
    const res = await fetchText(io, url);
    let served: unknown = undefined;
    if (res.status === 200) {
      try {
        served = JSON.parse(res.text);
      } catch {
        served = undefined;
      }
    }
    if (served === undefined) {
      out.push(`site: ${url} answered HTTP ${res.status}, not a bundle`);
      reason ??= `the site does not serve this bundle: ${url} answered HTTP ${res.status}`;
    } else if (canonicalJson(served) === canonicalJson(raw)) {
      out.push(`site: the same bundle as ${url} serves`);
    } else {
      const a = raw as Record<string, unknown>;
      const b = (served ?? {}) as Record<string, unknown>;
      const differ = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => {
        try {
          return canonicalJson(a[k] ?? null) !== canonicalJson(b[k] ?? null);
        } catch {
          return true;
        }
      });
      out.push(`site: DIFFERENT from the bundle ${url} serves (members: ${differ.sort().join(', ')})`);
      reason ??= `the site serves a different bundle for this event (it differs in ${differ.sort().join(', ')})`;
    }
  }

  if (reason === null) {
    out.push(
      verdict.signature.status === 'trusted'
        ? `verified: signed with the site's key ${verdict.signature.keyId}; the ranking follows from the scores and the bundle is unchanged`
        : 'verified (integrity only): unsigned, so nothing vouches that the site published it; the ranking follows from the scores and the hash matches',
    );
  } else out.push(`NOT VERIFIED: ${reason}`);
  io.out(out.join('\n'));
  return reason === null ? 0 : 1;
}

/** The real process's input and output. */
export function nodeIo(): VerifyIo {
  return {
    readFile: async (path) => (await import('node:fs/promises')).readFile(path, 'utf8'),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    fetch: (url) => fetch(url, { headers: { accept: 'application/json' } }),
    out: (text) => process.stdout.write(text + '\n'),
    err: (text) => process.stderr.write(text + '\n'),
  };
}
