import { Type } from 'typebox';

const Count = Type.Integer({ minimum: 0 });

export const EventStatsSchema = Type.Object({
  event_id: Type.String(),
  registrations: Type.Object({ pending: Count, approved: Count, rejected: Count, withdrawn: Count }),
  projects: Type.Integer({ minimum: 0, description: 'every submitted project of the event' }),
  judged_projects: Type.Integer({ minimum: 0, description: 'projects of approved teams: the ones reviewed and ranked' }),
  reviews: Type.Object({
    by_model: Type.Array(
      Type.Object({
        reviewer: Type.String({ description: 'model identifier provider/model' }),
        pending: Count,
        running: Count,
        done: Count,
        failed: Count,
      }),
    ),
    human: Type.Object({
      reviewers: Count,
      invitations_pending: Type.Integer({ minimum: 0, description: 'not accepted and not expired' }),
      reviews_done: Count,
    }),
  }),
  reviewers: Type.Array(
    Type.Object({
      user_id: Type.String(),
      email: Type.String(),
      reviewed: Count,
      assigned: Type.Integer({
        minimum: 0,
        description: 'judged projects the reviewer is to review: in assigned reviewing those assigned to them; otherwise every one but their own team’s',
      }),
    }),
  ),
});
