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

const excludedCount = (description: string) => Type.Integer({ minimum: 0, description });
const ProjectExcludedVotes = {
  disabled_account: excludedCount('cast by an account an admin disabled'),
  own_or_former_team: excludedCount("cast by someone who is or was in the project's team (voted before joining it, or left it)"),
  new_account: excludedCount('cast by an account created after voting opened, when exclude_new_accounts is on'),
  project_excluded: excludedCount('cast for a project the organizer took out of the vote'),
};

export const TallySchema = Type.Object({
  event_id: Type.String(),
  ...Window,
  open: Type.Boolean(),
  votes: Type.Integer({ description: 'every vote cast (counted or not)' }),
  voters: Type.Integer(),
  counted: Type.Integer({ description: "the votes that count, as the people's choice counts them at publication" }),
  excluded_votes: Type.Object(
    { team_not_approved: excludedCount('cast for a project whose team is no longer approved (not listed in projects)'), ...ProjectExcludedVotes },
    {
      description:
        'the votes that do not count, each under the first reason that applies (in this order: team, project, account, team membership, account age); votes = counted + their sum',
    },
  ),
  projects: Type.Array(
    Type.Object({
      rank: Nullable(Type.Integer({ description: "the place the people's choice would give now; null when no vote counts" })),
      project_id: Type.String(),
      project_name: Type.String(),
      team_name: Type.String(),
      track_id: Nullable(Type.String()),
      cast: Type.Integer({ description: 'votes cast for the project, counted or not' }),
      votes: Nullable(Type.Integer({ description: 'counted votes; null for a project taken out of the vote' })),
      excluded_votes: Type.Object(ProjectExcludedVotes, { description: "the project's votes that do not count, by reason (cast = votes + their sum)" }),
      excluded: Type.Boolean({ description: 'taken out of the vote by the organizer' }),
    }),
    { description: 'projects with votes cast, and those taken out of the vote: ranked first, as published' },
  ),
  per_hour: Type.Array(Type.Object({ hour: Type.String(), votes: Type.Integer() }), { description: 'votes cast per hour (UTC), to spot bursts' }),
});

export const PeoplesChoiceSchema = Type.Object({
  event_id: Type.String(),
  enabled: Type.Boolean(),
  per_track: Type.Boolean({ description: 'true: voted per track, so each track is its own list (entries carry their scope)' }),
  entries: Type.Array(PeoplesChoiceEntrySchema),
});
