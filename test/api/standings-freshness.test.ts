import {
  TableNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/core/db/index.js';
import { createStandingsRefresher } from '../../src/results/standings-refresh.js';
import { DIALECTS } from '../helpers/databases.js';
import { createEvent, startTestApp, type TestApp, type TestUser } from '../helpers/harness.js';
import { quickUser } from '../helpers/quick-users.js';
import { seedProjects } from '../helpers/seed-projects.js';

/**
 * A Kysely plugin that holds the first SELECT from `table` after its rows have been read, until
 * the test lets it go: a deterministic point between a refresh's read and its write-back.
 */
function holdAfterRead(table: string) {
  const watched = new WeakSet<QueryId>();
  let armed = true;
  let reached!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
      if (node.kind === 'SelectQueryNode') {
        const from = node.from?.froms[0];
        if (from && TableNode.is(from) && from.table.identifier.name === table) watched.add(queryId);
      }
      return node;
    },
    async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (armed && watched.has(queryId)) {
        armed = false;
        reached();
        await released;
      }
      return result;
    },
  };
  return { plugin, held, release };
}

/** Scores per project: [impact, craft]. With weights impact 2, craft 1 the first leads; with 1 and 3, the second. */
const SCORES: Array<[number, number]> = [
  [8, 2],
  [2, 8],
];

/**
 * The live ranking is built from `standings` rows that database triggers mark stale; these tests
 * fix the order of events that a property test may never produce: an edit after a read, and a
 * write landing between a refresh's read and its write-back.
 */
describe.each(DIALECTS)('standings stay current (%s)', (dialect) => {
  let t: TestApp;
  let org: TestUser;

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { REVIEW_WORKERS: 'false' } });
    org = await quickUser(t, 'organizer');
  });
  afterAll(async () => t?.close());

  async function scored(): Promise<{ eventId: string; ids: string[] }> {
    // Dimensions impact (weight 2) and craft (weight 1), no models: the human scores alone count.
    const eventId = await createEvent(t, org.key, { models: [] });
    const ids = await seedProjects(
      t,
      eventId,
      SCORES.map(() => ({ track: 'tools', score: 5 })),
    );
    for (const [i, id] of ids.entries()) {
      const [impact, craft] = SCORES[i]!;
      await t.ctx.db
        .updateTable('reviews')
        .set({ scores: JSON.stringify({ impact, craft }) })
        .where('project_id', '=', id)
        .execute();
    }
    return { eventId, ids };
  }

  const board = async (eventId: string) => {
    const res = await t.api('GET', `/events/${eventId}/leaderboard`, { key: org.key });
    expect(res.status).toBe(200);
    expect(res.headers.get('leaderboard-pending')).toBeNull();
    return res.body.map((e: { project_id: string; score: number; rank: number }) => [e.project_id, e.score, e.rank]);
  };

  it('marks the standings stale when the weights are edited: score, read, edit the weights, read gives the new numbers', async () => {
    const { eventId, ids } = await scored();
    // impact 2, craft 1: (2·8 + 2) / 3 = 6 and (2·2 + 8) / 3 = 4.
    expect(await board(eventId)).toEqual([
      [ids[0], 6, 1],
      [ids[1], 4, 2],
    ]);
    const edit = await t.api('PATCH', `/events/${eventId}`, {
      key: org.key,
      body: {
        dimensions: [
          { name: 'impact', weight: 1 },
          { name: 'craft', weight: 3 },
        ],
      },
    });
    expect(edit.status).toBe(200);
    // impact 1, craft 3: (8 + 6) / 4 = 3.5 and (2 + 24) / 4 = 6.5; the order turns round.
    expect(await board(eventId)).toEqual([
      [ids[1], 6.5, 1],
      [ids[0], 3.5, 2],
    ]);
    // The same numbers in the export, which waits for every stale standing.
    const csv = await t.api('GET', `/events/${eventId}/leaderboard.csv`, { key: org.key });
    expect(csv.status).toBe(200);
    expect(
      csv.text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((r) => [r.split(',')[1], Number(r.split(',')[5])]),
    ).toEqual([
      [ids[1], 6.5],
      [ids[0], 3.5],
    ]);
  });

  describe('a background refresh never writes back numbers older than the row', () => {
    let other: DatabaseHandle;
    beforeAll(() => {
      // The refresher under test runs on a connection of its own, as another server process would.
      other = openDatabase(t.config.database);
    });
    afterAll(async () => other?.close());

    const standing = async (projectId: string) =>
      t.ctx.db.selectFrom('standings').select(['stale', 'version']).where('project_id', '=', projectId).executeTakeFirstOrThrow();

    /**
     * Every standing of the event stale (freshly scored, never read), then a background refresh (inlineRows 0: the read leaves
     * the whole of it to the background) held right after it has read `table`, while `write` runs;
     * then the refresh goes on to its write-back.
     */
    async function refreshAround(eventId: string, ids: string[], table: string, write: () => Promise<void>) {
      const hold = holdAfterRead(table);
      const refresher = createStandingsRefresher({ db: other.db.withPlugin(hold.plugin), dialect, inlineRows: 0 });
      try {
        const before = await Promise.all(ids.map(standing));
        expect(before.map((s) => Number(s.stale))).toEqual(ids.map(() => 1));
        expect(await refresher.forRead(eventId)).toBe(ids.length);
        await hold.held;
        await write();
        const bumped = await Promise.all(ids.map(standing));
        hold.release();
        await refresher.idle();
        return { before, bumped };
      } finally {
        hold.release();
        await refresher.stop();
      }
    }

    it('a review re-scored after the refresh read the reviews: its write-back is refused and the run recomputes it: the new score wins', async () => {
      const { eventId, ids } = await scored();
      const { bumped } = await refreshAround(eventId, ids, 'reviews', async () => {
        // The first project's review now says 0 and 0.
        await t.ctx.db
          .updateTable('reviews')
          .set({ scores: JSON.stringify({ impact: 0, craft: 0 }) })
          .where('project_id', '=', ids[0]!)
          .execute();
      });
      // The write-back computed from the review as it was is refused for the row the write moved;
      // the run's next pass recomputes it from the new review. Its numbers are the new ones.
      const after = await standing(ids[0]!);
      expect(Number(after.stale)).toBe(0);
      expect(Number(after.version)).toBe(Number(bumped[0]!.version));
      expect(await board(eventId)).toEqual([
        [ids[1], 4, 1],
        [ids[0], 0, 2],
      ]);
    });

    it('weights edited after the refresh read them: no row is written back from the old weights', async () => {
      const { eventId, ids } = await scored();
      await refreshAround(eventId, ids, 'events', async () => {
        const edit = await t.api('PATCH', `/events/${eventId}`, {
          key: org.key,
          body: {
            dimensions: [
              { name: 'impact', weight: 1 },
              { name: 'craft', weight: 3 },
            ],
          },
        });
        expect(edit.status).toBe(200);
      });
      // Every row was recomputed again from the new weights (the first write-back was refused).
      for (const id of ids) expect(Number((await standing(id)).stale)).toBe(0);
      expect(await board(eventId)).toEqual([
        [ids[1], 6.5, 1],
        [ids[0], 3.5, 2],
      ]);
    });
  });
});
