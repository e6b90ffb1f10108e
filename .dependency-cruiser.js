// The layer check (`npm run layers`, part of `npm test`): who may import whom under src/ and web/src/.
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
  ['registrations', 'announcements'],
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

/**
 * The web app (web/src/), lowest first: a layer imports only the layers below it (and itself).
 * `api` is the generated API types; `i18n` the languages, the words and the problems' sentences;
 * `lib` the API client, the session, formatting, the site facts, the clock; `ui` the shared
 * components; `features` the pages, one folder per area. Above them all the shell (web/src/*.tsx:
 * app.tsx routes the pages, main.tsx starts it), which nothing imports.
 */
const WEB_LAYERS = [['api', 'i18n'], ['lib'], ['ui'], ['features']];
const WEB_SHELL = '^web/src/[^/]+$';
const WEB_TEST = '\\.test\\.tsx?$';

const webOrderRules = WEB_LAYERS.flatMap((rank, i) => {
  const notBelow = WEB_LAYERS.slice(i).flat();
  return rank.map((layer) => {
    const above = notBelow.filter((l) => l !== layer);
    return {
      name: `web-order-${layer}`,
      comment: `web/src/${layer} may import only the layers below it (${WEB_LAYERS.slice(0, i).flat().join(', ') || 'none'}), never ${above.join(', ') || 'another layer'} or the shell`,
      severity: 'error',
      from: { path: `^web/src/${layer}/` },
      to: { path: above.length > 0 ? `^web/src/(${above.join('|')})/|${WEB_SHELL}` : WEB_SHELL },
    };
  });
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
    ...webOrderRules,
    {
      name: 'web-features-apart',
      comment:
        "A feature (web/src/features/<area>/) imports no other feature: what two share lives in features/shared/ (which imports no feature), ui/ or lib/; a page that shows another feature's part gets it from the shell.",
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/', pathNot: '^web/src/features/shared/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/($1|shared)/' },
    },
    {
      name: 'web-shared-not-features',
      comment: 'features/shared/ is below the features: it imports none of them.',
      severity: 'error',
      from: { path: '^web/src/features/shared/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/shared/' },
    },
    {
      name: 'web-not-server',
      comment: "The pages import nothing of the server, the tests or the benches (a unit test beside them may read the server's code lists).",
      severity: 'error',
      from: { path: '^web/src/', pathNot: WEB_TEST },
      to: { path: '^(src|test|bench)/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a broken build waiting to happen (the generated API types aside).',
      severity: 'error',
      from: {},
      // web/src/api/schema.d.ts is generated (npm run api-types), not committed: a fresh clone has none yet.
      to: { couldNotResolve: true, pathNot: '^\\.\\./api/schema$' },
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
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
