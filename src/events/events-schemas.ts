import { Type } from 'typebox';
import { Nullable } from '../core/http/schemas.js';
import { EVENT_STATUS_INPUTS } from './status.js';

const Timestamp = Type.String({ description: 'ISO 8601 date-time with a time zone', maxLength: 40 });
/** A status as an input: the six statuses and `recruiting`, an alias of `open`. */
export const EventStatusInputSchema = Type.Union(EVENT_STATUS_INPUTS.map((s) => Type.Literal(s)));

export const TrackSchema = Type.Object({ id: Type.String(), name: Type.String(), prize: Type.String() });
export const DimensionSchema = Type.Object({ name: Type.String(), weight: Type.Number() });
export const FormFieldSchema = Type.Object({
  key: Type.String(),
  name: Type.String(),
  label: Type.String(),
  type: Type.String(),
  required: Type.Boolean(),
});
export const TimelineSchema = Type.Object({
  registration_deadline: Type.String(),
  submission_deadline: Type.String(),
  result_announced_at: Nullable(Type.String()),
});

export const GalleryVisibilitySchema = Type.Union([Type.Literal('after_deadline'), Type.Literal('after_results'), Type.Literal('never')], {
  description: 'when the projects become public in the gallery: after the submission deadline (default), after the results are published, or never',
});

export const NormalizationSchema = Type.Union([Type.Literal('none'), Type.Literal('zscore')], {
  description:
    "none (raw scores, default) or zscore (each reviewer's and model's scores standardised per dimension, mapped back to 0-10 by the panel's mean and spread); changeable until publication",
});

export const VotingSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    opens_at: Type.String({ description: 'when voting opens (default: the submission deadline)' }),
    closes_at: Nullable(Type.String({ description: 'when voting closes (required once enabled)' })),
    votes_per_person: Type.Integer({ description: 'votes each account has (per track when per_track)' }),
    per_track: Type.Boolean(),
    exclude_new_accounts: Type.Boolean({ description: 'accounts created after voting opened may not vote' }),
  },
  { description: "People's choice voting: any signed-in account votes for projects of the gallery within the window" },
);

export const EventSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String({ description: 'Markdown source (CommonMark with tables, strikethrough and autolinks)' }),
  description_html: Type.String({
    description: 'the description rendered to sanitised HTML (no raw HTML, http(s)/mailto links with rel="noopener nofollow ugc", images as links)',
  }),
  status: Type.String(),
  registration_deadline: Type.String(),
  submission_deadline: Type.String(),
  result_announced_at: Nullable(Type.String()),
  hacking_starts_at: Nullable(
    Type.String({
      description:
        'when hacking starts: build-window checks flag repositories created, or with a first commit, before it; null: not set, the registration deadline counts',
    }),
  ),
  time_zone: Nullable(
    Type.String({ description: 'the IANA time zone the organizer gives the deadlines in (for display; the deadlines are UTC instants); null if not set' }),
  ),
  timeline: TimelineSchema,
  gallery_visibility: GalleryVisibilitySchema,
  voting: VotingSchema,
  cover_url: Nullable(
    Type.String({
      description: "the event's cover image (absolute URL, changes when a new one is uploaded); null: none. PUT /events/{id}/media/cover sets it",
    }),
  ),
  logo_url: Nullable(Type.String({ description: "the event's logo (absolute URL, changes when a new one is uploaded); null: none" })),
  normalization: NormalizationSchema,
  tracks: Type.Array(TrackSchema),
  dimensions: Type.Array(DimensionSchema),
  models: Type.Array(Type.String()),
  registration_config: Type.Object({
    open: Type.Boolean(),
    auto_approve: Type.Boolean(),
    fields: Type.Array(FormFieldSchema),
    max_team_size: Nullable(Type.Integer({ minimum: 1, maximum: 100, description: 'the most people a team may have, the leader counted; null: no limit' })),
    min_team_size: Nullable(
      Type.Integer({ minimum: 1, maximum: 100, description: 'the fewest people a team must have to submit, the leader counted; null: no limit' }),
    ),
  }),
  feedback_released: Type.Optional(
    Type.Boolean({
      description:
        'Only shown to the organizers: whether the teams may read their reviews (scores, comments, AI summaries; reviewers unnamed) once results are published',
    }),
  ),
  co_organizers: Type.Optional(
    Type.Array(Type.String(), { description: 'The e-mail addresses named as co-organizers (whether or not they have accounts); only shown to the organizers' }),
  ),
  notes: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Only shown to the organizers: what to know about how the event will be judged (no AI models: only human reviewers score; a model this server cannot run; the default "overall" dimension). Empty when nothing needs saying',
    }),
  ),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const EventSummarySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String({ description: 'Markdown source' }),
  description_text: Type.String({ description: 'the description as plain text without markup, at most 300 characters (for cards and previews)' }),
  status: Type.String(),
  registration_deadline: Type.String(),
  submission_deadline: Type.String(),
  result_announced_at: Nullable(Type.String()),
  tracks: Type.Array(TrackSchema),
  cover_url: Nullable(
    Type.String({
      description: "the event's cover image (absolute URL, changes when a new one is uploaded); null: none. PUT /events/{id}/media/cover sets it",
    }),
  ),
  logo_url: Nullable(Type.String({ description: "the event's logo (absolute URL, changes when a new one is uploaded); null: none" })),
  created_at: Type.String(),
});

/** A list item: every summary field by default, only those named in `?fields=` otherwise. */
export const EventListItemSchema = Type.Partial(EventSummarySchema);
export const LIST_FIELDS = Object.keys(EventSummarySchema.properties) as Array<keyof typeof EventSummarySchema.properties>;

export const RegistrationFormSchema = Type.Object({
  event_id: Type.String(),
  event_name: Type.String(),
  description: Type.String(),
  status: Type.String(),
  open: Type.Boolean(),
  auto_approve: Type.Boolean(),
  max_team_size: Nullable(Type.Integer({ minimum: 1, maximum: 100, description: 'the most people a team may have, the leader counted; null: no limit' })),
  min_team_size: Nullable(
    Type.Integer({ minimum: 1, maximum: 100, description: 'the fewest people a team must have to submit, the leader counted; null: no limit' }),
  ),
  timeline: TimelineSchema,
  tracks: Type.Array(TrackSchema),
  fields: Type.Array(FormFieldSchema),
  event: Type.Object({ id: Type.String(), name: Type.String(), status: Type.String() }),
});

const FormFieldInputSchema = Type.Object(
  {
    key: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' })),
    label: Type.Optional(Type.String({ maxLength: 200 })),
    type: Type.Optional(Type.String({ maxLength: 20 })),
    required: Type.Optional(Type.Boolean()),
  },
  // `key` or its alias `name`: at least one (the server needs a key), so a schema validator accepts what the server does.
  { additionalProperties: false, anyOf: [{ required: ['key'] }, { required: ['name'] }] },
);

const opt = Type.Optional;
const eventInputProperties = {
  name: opt(Type.String({ minLength: 1, maxLength: 200 })),
  description: opt(Type.String({ maxLength: 10_000 })),
  tracks: opt(
    Type.Array(
      Type.Object(
        {
          id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }),
          name: Type.String({ minLength: 1, maxLength: 120 }),
          prize: opt(Type.String({ maxLength: 500 })),
        },
        { additionalProperties: false },
      ),
      { maxItems: 50 },
    ),
  ),
  dimensions: opt(
    Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 80 }),
          weight: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 20 },
    ),
  ),
  models: opt(Type.Array(Type.String({ minLength: 3, maxLength: 200 }), { maxItems: 10 })),
  registration_deadline: opt(Timestamp),
  submission_deadline: opt(Timestamp),
  hacking_starts_at: opt(
    Nullable(
      Type.String({
        maxLength: 40,
        description:
          'ISO 8601 date-time with a time zone, before submission_deadline: the build-window checks compare repositories with it; null: the registration deadline',
      }),
    ),
  ),
  time_zone: opt(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'IANA time zone name the organizer reads the deadlines in, e.g. Europe/Berlin; null clears it. Display only: deadlines stay instants.',
      }),
    ),
  ),
  gallery_visibility: opt(GalleryVisibilitySchema),
  normalization: opt(NormalizationSchema),
  voting: opt(
    Type.Object(
      {
        enabled: opt(Type.Boolean()),
        opens_at: opt(Nullable(Timestamp)),
        closes_at: opt(Nullable(Timestamp)),
        votes_per_person: opt(Type.Integer({ minimum: 1, maximum: 20 })),
        per_track: opt(Type.Boolean()),
        exclude_new_accounts: opt(Type.Boolean()),
      },
      { additionalProperties: false, description: "People's choice settings; send only what changes" },
    ),
  ),
  registration_config: opt(
    Type.Object(
      {
        open: opt(Type.Boolean()),
        auto_approve: opt(Type.Boolean()),
        fields: opt(Type.Array(FormFieldInputSchema, { maxItems: 50 })),
        max_team_size: opt(
          Nullable(Type.Integer({ minimum: 1, maximum: 100, description: 'the most people a team may have, the leader counted; null: no limit' })),
        ),
        min_team_size: opt(
          Nullable(Type.Integer({ minimum: 1, maximum: 100, description: 'the fewest people a team must have to submit, the leader counted; null: no limit' })),
        ),
      },
      { additionalProperties: false },
    ),
  ),
  co_organizers: opt(
    Type.Array(Type.String({ maxLength: 254 }), {
      maxItems: 20,
      description: 'E-mail addresses whose accounts (now or once signed up) organize the event too',
    }),
  ),
};

/** Creation body: the seed's fields; name and deadlines are required (checked with the other rules). */
export const CreateEventBody = Type.Object(
  {
    ...eventInputProperties,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    registration_deadline: Timestamp,
    submission_deadline: Timestamp,
    status: opt(Type.Union([Type.Literal('draft'), Type.Literal('open'), Type.Literal('recruiting')])),
  },
  { additionalProperties: false },
);

export const PatchEventBody = Type.Object({ ...eventInputProperties, status: opt(EventStatusInputSchema) }, { additionalProperties: false, minProperties: 1 });

export const EventIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const ListEventsQuery = Type.Object(
  {
    status: Type.Optional(Type.String({ maxLength: 200, description: 'comma-separated; recruiting = open' })),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    cursor: Type.Optional(Type.String({ pattern: '^evt_[0-9a-z]{1,40}$' })),
    mine: Type.Optional(Type.Boolean({ description: 'events you organize, drafts included (needs a key)' })),
    fields: Type.Optional(Type.String({ maxLength: 300, description: 'comma list of the item fields to return (compact pages), e.g. id,name,status' })),
  },
  { additionalProperties: false },
);
