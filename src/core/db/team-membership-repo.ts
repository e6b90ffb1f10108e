import { sql, type RawBuilder } from 'kysely';

/**
 * The one rule for "this person is on that team" where a conflict of interest is decided: the
 * registrant, a current member or a former one (left or removed: they worked on the project). An
 * expression over the query's `registrations` row, for the user id or column `user` refers to.
 * Reviewing uses it (a reviewer never judges their own team's project, whoever registered it).
 */
export function onTeamOf(user: string | RawBuilder<string>): RawBuilder<boolean> {
  return sql<boolean>`(registrations.user_id = ${user}
    or exists (select 1 from team_members where team_members.registration_id = registrations.id and team_members.user_id = ${user})
    or exists (select 1 from team_former_members where team_former_members.registration_id = registrations.id and team_former_members.user_id = ${user}))`;
}
