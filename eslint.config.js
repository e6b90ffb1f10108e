// @ts-check
// ESLint for the whole tree (`npm run lint`, part of `npm test`): the server (src), its tests and
// benches, and the web app (web/). Type-aware: the rules read the TypeScript types, through each
// file's own tsconfig (projectService). Every rule turned off or relaxed below says why.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Kysely's query starters: a call of one of these outside a repository is SQL in the wrong place. */
const QUERY_BUILDERS = ['selectFrom', 'selectNoFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto', 'with', 'withRecursive'];

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'web/public/**',
      // Generated from the OpenAPI document (npm run api-types), not committed.
      'web/src/api/schema.d.ts',
      // A tree of deliberate upward imports for the layer check's own test (test/unit/layers.test.ts).
      'test/fixtures/layers/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The files no tsconfig includes (this file, web/scripts/*.mjs) get a default project.
        projectService: { allowDefaultProject: ['*.js', 'web/scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Beyond the recommended set: the bugs reviews miss.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        // A `default:` is a deliberate catch-all (Node's error codes, a string that may be undefined);
        // a switch without one must name every member of its union.
        { considerDefaultExhaustiveForUnions: true },
      ],
      // `return promise` inside try/catch skips the catch; elsewhere returning it as is is fine.
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
      eqeqeq: ['error', 'smart'],
      // A leading underscore marks a binding kept on purpose (a positional parameter, a property
      // dropped from a rest spread).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Off: Fastify plugins and hooks are `async` functions without an `await` by design (an async
      // plugin is how Fastify knows it has finished registering, without a `done` callback), and
      // interfaces such as RateLimitStore return promises from in-memory implementations. The rule
      // would make each of them a `done` callback or a Promise.resolve wrapper and catch no bug;
      // un-awaited promises are what no-floating-promises and no-misused-promises catch.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // SQL lives in repositories (docs/architecture.md, "Queries live in repositories"): Kysely query
    // building and the `sql` tag appear only in `*-repo.ts` files and in core's database modules
    // (core/db: the connection, the migrations, the schema; core/audit.ts, the audit log's writer
    // every domain calls; core job queues). Services may open a transaction and hand `tx` to repo
    // functions; they build no query themselves.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*-repo.ts', 'src/core/db/**', 'src/core/audit.ts', 'src/core/**/*-queue.ts', 'src/core/jobs/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression > MemberExpression.callee[property.name=/^(${QUERY_BUILDERS.join('|')})$/]`,
          message: 'Queries live in repositories: move this query into a *-repo.ts function that takes an Executor (db or tx) first.',
        },
        {
          selector: "ImportDeclaration[source.value='kysely'] > ImportSpecifier[imported.name='sql']",
          message: 'The sql tag belongs in repositories: move the query into a *-repo.ts function that takes an Executor (db or tx) first.',
        },
      ],
    },
  },
  {
    // Plain JavaScript (this file, build scripts) has no types to check against.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // Tests and benches read JSON answers (`res.body`, `JSON.parse`) whose shape is the very thing
    // they check: `expect(body).toEqual(...)` is the assertion, so an `any` body is the point there,
    // not a hole. Typing every body would copy the route schemas into the tests. src/ and web/ keep
    // all of these rules; tests keep every other rule (floating promises included).
    files: ['test/**/*.ts', 'bench/**/*.ts', 'web/src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    languageOptions: { globals: { ...globals.browser } },
  },
);
