import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/layers', import.meta.url));
const CONFIG = fileURLToPath(new URL('../../.dependency-cruiser.js', import.meta.url));
const DEPCRUISE = fileURLToPath(new URL('../../node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url));

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Runs the layer check (the same command and config as `npm run layers`) over `src` and `web/src` under `cwd`. */
async function layerViolations(cwd: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [DEPCRUISE, '--config', CONFIG, '--output-type', 'json', 'src', 'web/src'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(report.summary.totalCruised).toBeGreaterThan(0);
  return report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

describe('layer check', () => {
  it('reports every upward import, circle and routes import of the fixture (server and web app), and nothing it allows', async () => {
    expect(await layerViolations(FIXTURE)).toEqual([
      'core-imports-no-domain: src/core/http/auth-hook.ts -> src/accounts/accounts-service.ts',
      'domain-order-events: src/events/events-service.ts -> src/accounts/accounts-service.ts',
      'domains-not-surfaces: src/results/results-service.ts -> src/docs/docs-page.ts',
      'no-circular: src/registrations/registration-waits.ts -> src/registrations/registrations-service.ts',
      'no-wiring-below: src/events/events-routes.ts -> src/app-context.ts',
      'routes-only-from-wiring: src/docs/docs-page.ts -> src/events/events-routes.ts',
      'web-features-apart: web/src/features/public/event-page.ts -> web/src/features/participant/my-status.ts',
      'web-not-server: web/src/lib/server-codes.ts -> src/core/principal.ts',
      'web-order-api: web/src/api/schema.ts -> web/src/lib/format.ts',
      'web-order-features: web/src/features/public/back-link.ts -> web/src/app.ts',
      'web-order-i18n: web/src/i18n/index.ts -> web/src/lib/format.ts',
      'web-order-lib: web/src/lib/api.ts -> web/src/features/public/event-page.ts',
      'web-order-ui: web/src/ui/layout.ts -> web/src/app.ts',
      'web-shared-not-features: web/src/features/shared/event-data.ts -> web/src/features/participant/my-status.ts',
    ]);
  });

  it('finds the real tree clean', async () => {
    expect(await layerViolations(ROOT)).toEqual([]);
  });
}, 180_000);
