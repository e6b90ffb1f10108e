// The layer check (`npm run layers`, part of `npm test`): who may import whom under src/.
// docs/architecture.md explains the layers; this file is where they are enforced. Keep the two in step.

/** The wiring: the files directly under src/ (app.ts, app-context.ts, server.ts, cli.ts, first-run-hint.ts). */
const WIRING = '^src/[^/]+\\.ts$';

/**
 * Domains, lowest first. A domain may import `core` and the domains of the ranks below its own
 * (their services' types, schemas, pure models and repo functions that must join its transaction),
 * never a domain of its own rank or above: so the domains form no circle, and one can read them
 * bottom-up. Add a new domain at the lowest rank it fits.
 */
const DOMAIN_RANKS = [
  ['events', 'idempotency'],
  ['accounts', 'webhooks', 'notifications'],
  ['registrations'],
  ['submissions', 'teams'],
  ['results', 'reviewers', 'reviews', 'stats', 'participants'],
  ['showcase', 'audit'],
];

/** Surfaces sit on top of the domains: they present them (agent material, API docs, MCP, the web app's pages). */
const SURFACES = ['agents', 'docs', 'mcp', 'web'];

const DOMAINS = DOMAIN_RANKS.flat();
const folders = (names) => `^src/(${names.join('|')})/`;

const domainOrderRules = DOMAIN_RANKS.flatMap((rank, i) => {
  const notBelow = DOMAIN_RANKS.slice(i).flat();
  return rank.map((domain) => ({
    name: `domain-order-${domain}`,
    comment: `${domain} may import only the domains below its rank (${DOMAIN_RANKS.slice(0, i).flat().join(', ') || 'none'}) and core`,
    severity: 'error',
    from: { path: `^src/${domain}/` },
    to: { path: folders(notBelow.filter((d) => d !== domain)) },
  }));
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-no-domain',
      comment: 'core is the floor: it imports nothing else under src/ (no domain, no surface, not the wiring).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'no-wiring-below',
      comment: 'Only the wiring imports the wiring: domains and surfaces get what they need passed in (their *RoutesDeps).',
      severity: 'error',
      from: { path: '^src/[^/]+/' },
      to: { path: WIRING },
    },
    {
      name: 'domains-not-surfaces',
      comment: 'Domains do not import the surfaces that present them.',
      severity: 'error',
      from: { path: folders(DOMAINS) },
      to: { path: folders(SURFACES) },
    },
    ...domainOrderRules,
    {
      name: 'routes-only-from-wiring',
      comment: 'A *-routes.ts module is registered by app.ts and imported by nothing else: share helpers through core/http or a schemas/model module.',
      severity: 'error',
      from: { path: '^src/', pathNot: WIRING },
      to: { path: '-routes\\.ts$' },
    },
    {
      name: 'src-not-tests-or-tools',
      comment: 'The server does not import tests, benches or the web app (no test-only code in src/).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|web)/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a broken build waiting to happen.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too: a domain that needs another's types depends on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
