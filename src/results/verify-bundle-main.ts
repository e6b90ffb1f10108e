import { nodeIo, runVerify } from './bundle-verify-cli.js';

// The entry of the site's single-file verifier (GET /verify-bundle.mjs, bundled by
// scripts/build-verifier.mjs): `node verify-bundle.mjs bundle.json [--site URL]`.
process.exitCode = await runVerify(process.argv.slice(2), nodeIo(), 'node verify-bundle.mjs');
