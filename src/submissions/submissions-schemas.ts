import { Type } from 'typebox';
import { GITHUB_REPO_URL_PATTERN, GITHUB_URL_MESSAGE } from '../core/urls.js';
import { ProjectSchema } from '../registrations/project-schema.js';

const UrlString = Type.String({ maxLength: 2048 });

/** `errorMessage` replaces ajv's "must match pattern …" with what the client should send instead. */
export const GithubUrlString = Type.String({
  maxLength: 2048,
  pattern: GITHUB_REPO_URL_PATTERN,
  description: 'https://github.com/<owner>/<repo> (optionally ending in .git or /); any other link goes in project_website',
  errorMessage: `${GITHUB_URL_MESSAGE}; put any other link in project_website`,
});

export const SubmitBody = Type.Object(
  {
    project_name: Type.Optional(Type.String({ maxLength: 120 })),
    name: Type.Optional(Type.String({ maxLength: 120 })),
    github_url: GithubUrlString,
    project_website: Type.Optional(UrlString),
    demo_video_url: Type.Optional(UrlString),
    demo_url: Type.Optional(UrlString),
    team_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    track_id: Type.Optional(Type.String({ maxLength: 64, description: "The team's registered track; may be left out (it is kept), never changed." })),
    tagline: Type.Optional(Type.String({ maxLength: 400, description: 'one line, at most 140 characters; left out: the project keeps its own; "" clears it' })),
    tags: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), {
        maxItems: 20,
        description: '"built with" tags, at most 10 of 32 characters once normalised ("#Next JS" → "next-js"; equal ones merged); left out: kept',
      }),
    ),
  },
  // project_name or its alias name (at least one), and github_url: what the server requires, so a
  // schema validator accepts exactly the bodies the server does.
  {
    additionalProperties: false,
    anyOf: [{ required: ['project_name'] }, { required: ['name'] }],
    // Read by the validation errors: a client sending only the changed fields learns why that fails.
    requiredMessage:
      'submit replaces the whole project, so send every field each time, not only the changed ones (your current project is in GET my-registration)',
  },
);

export const SubmitResponse = Type.Object({ ...ProjectSchema.properties, updated: Type.Boolean() });
