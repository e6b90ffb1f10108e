import { Type } from 'typebox';
import { Nullable } from '../core/http/schemas.js';
import { PeoplesChoiceEntrySchema } from '../results/results-schemas.js';

const Window = {
  opens_at: Type.String(),
  closes_at: Nullable(Type.String()),
};

export const VoteSchema = Type.Object({ project_id: Type.String(), track_id: Nullable(Type.String()), voted_at: Type.String() });

export const MyVotesSchema = Type.Object({
  event_id: Type.String(),
  enabled: Type.Boolean(),
  open: Type.Boolean({ description: 'whether votes are taken now' }),
  ...Window,
  votes_per_person: Type.Integer(),
  per_track: Type.Boolean(),
  votes: Type.Array(VoteSchema),
  own_project_ids: Type.Array(Type.String(), {
    description: 'the projects you may not vote for: those of a team you are or were in (you left it or were removed)',
  }),
});

export const TallySchema = Type.Object({
  event_id: Type.String(),
  ...Window,
  open: Type.Boolean(),
  votes: Type.Integer({ description: 'every vote cast (counted or not)' }),
  voters: Type.Integer(),
  projects: Type.Array(
    Type.Object({
      rank: Nullable(Type.Integer()),
      project_id: Type.String(),
      project_name: Type.String(),
      team_name: Type.String(),
      track_id: Nullable(Type.String()),
      votes: Nullable(Type.Integer({ description: 'counted votes; null for a project taken out of the vote' })),
      excluded: Type.Boolean(),
    }),
  ),
  per_hour: Type.Array(Type.Object({ hour: Type.String(), votes: Type.Integer() }), { description: 'votes cast per hour (UTC), to spot bursts' }),
});

export const PeoplesChoiceSchema = Type.Object({
  event_id: Type.String(),
  enabled: Type.Boolean(),
  per_track: Type.Boolean({ description: 'true: voted per track, so each track is its own list (entries carry their scope)' }),
  entries: Type.Array(PeoplesChoiceEntrySchema),
});
