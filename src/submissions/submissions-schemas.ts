import { Type } from 'typebox';
import { ProjectSchema } from '../registrations/project-schema.js';

const UrlString = Type.String({ maxLength: 2048 });

export const SubmitBody = Type.Object(
  {
    project_name: Type.Optional(Type.String({ maxLength: 120 })),
    name: Type.Optional(Type.String({ maxLength: 120 })),
    github_url: Type.Optional(UrlString),
    project_website: Type.Optional(UrlString),
    demo_video_url: Type.Optional(UrlString),
    demo_url: Type.Optional(UrlString),
    team_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    track_id: Type.Optional(Type.String({ maxLength: 64, description: "The team's registered track; may be left out (it is kept), never changed." })),
  },
  { additionalProperties: false },
);

export const SubmitResponse = Type.Object({ ...ProjectSchema.properties, updated: Type.Boolean() });
