import { Type } from 'typebox';
import { PASSWORD_MIN_LENGTH } from './passwords.js';
import { Nullable } from '../core/http/schemas.js';
import { LONG_POLL_MAX_SECONDS } from '../core/wait-policy.js';
import { organizerPageQuery } from '../core/http/pagination.js';

const Id = Type.String({ minLength: 1, maxLength: 64 });
export const IdParams = Type.Object({ id: Id });

const RoleSchema = Type.Union([Type.Literal('user'), Type.Literal('organizer'), Type.Literal('admin')]);
const Password = Type.String({ minLength: 1, maxLength: 1000 });
const DateTime = Type.String({ format: 'date-time', maxLength: 40 });

export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  role: RoleSchema,
  created_at: Type.String(),
});

export const SiteResponse = Type.Object({
  name: Type.String(),
  public_url: Type.String(),
  api_base: Type.String(),
  signup_mode: Type.Union([Type.Literal('open'), Type.Literal('invite'), Type.Literal('closed')]),
  ai_providers: Type.Array(Type.String(), { description: 'Model providers this server has credentials or base URLs for' }),
  password_min_length: Type.Integer(),
});

export const SignupBody = Type.Object(
  {
    email: Type.String({ maxLength: 254 }),
    password: Type.String({ maxLength: 1000, description: `At least ${PASSWORD_MIN_LENGTH} characters` }),
    name: Type.Optional(Type.String({ maxLength: 100 })),
    invite_code: Type.Optional(Type.String({ maxLength: 200, description: 'Needed when signup_mode is "invite"' })),
    language: Type.Optional(
      Type.Union([Type.Literal('en'), Type.Literal('zh')], {
        description: "Language of the mails the platform sends this person (default en); the web sign-up sends the browser's",
      }),
    ),
    time_zone: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "IANA time zone the mails show times in, e.g. Asia/Shanghai (default UTC); the web sign-up sends the browser's",
      }),
    ),
  },
  { additionalProperties: false },
);

export const SigninBody = Type.Object({ email: Type.String({ maxLength: 254 }), password: Password }, { additionalProperties: false });

export const AuthResponse = Type.Object({
  user: UserSchema,
  csrf_token: Type.String({ description: 'Send as X-CSRF-Token on every cookie-authenticated POST, PUT, PATCH and DELETE' }),
});

export const SignupSentResponse = Type.Object({
  status: Type.Literal('confirmation_sent', {
    description: 'A link was mailed to the address; the account is made when it is opened (POST /auth/signup/confirm)',
  }),
  email: Type.String({ description: 'The address, normalised' }),
});

export const SignupConfirmBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

export const SessionResponse = Type.Object({
  user: UserSchema,
  csrf_token: Nullable(Type.String()),
  session: Nullable(Type.Object({ id: Type.String(), created_at: Type.String(), expires_at: Type.String() })),
  via: Type.Union([Type.Literal('session'), Type.Literal('key')]),
});

/** GET /auth/status: the same as GET /auth/session when someone is signed in; all null when not. */
export const SessionStatusResponse = Type.Object({
  signed_in: Type.Boolean(),
  awaiting_confirmation: Type.Boolean({
    description:
      "true while the caller's account (made by POST /agents/signup with e-mail confirmation) waits for its owner to open the mailed link; its key works only here and for its own rotation and revocation until then",
  }),
  user: Nullable(UserSchema),
  csrf_token: Nullable(Type.String()),
  session: Nullable(Type.Object({ id: Type.String(), created_at: Type.String(), expires_at: Type.String() })),
  via: Nullable(Type.Union([Type.Literal('session'), Type.Literal('key')])),
});

export const SessionsResponse = Type.Array(
  Type.Object({
    id: Type.String(),
    created_at: Type.String(),
    last_seen_at: Type.String(),
    expires_at: Type.String(),
    user_agent: Nullable(Type.String()),
    ip: Nullable(Type.String()),
    current: Type.Boolean(),
  }),
);

export const PasswordBody = Type.Object({ current_password: Password, new_password: Type.String({ maxLength: 1000 }) }, { additionalProperties: false });
export const ResetRequestBody = Type.Object({ email: Type.String({ maxLength: 254 }) }, { additionalProperties: false });
export const ResetConfirmBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), password: Type.String({ maxLength: 1000 }) },
  { additionalProperties: false },
);

const KeyFields = {
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  scope: Type.Union([Type.Literal('full'), Type.Literal('review')]),
  created_at: Type.String(),
  last_used_at: Nullable(Type.String()),
  expires_at: Nullable(Type.String()),
  revoked_at: Nullable(Type.String()),
};
export const KeysResponse = Type.Array(Type.Object(KeyFields));
export const CreateKeyBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }), expires_at: Type.Optional(Nullable(DateTime)) },
  { additionalProperties: false },
);
export const CreatedKeyResponse = Type.Object({ ...KeyFields, key: Type.String({ description: 'The API key itself: shown once, store it now' }) });

export const RotateKeyBody = Type.Object(
  { expires_at: Type.Optional(Nullable(DateTime)) },
  { additionalProperties: false, description: 'Optional: when the new key expires (default: never)' },
);

export const AuthStatusQuery = Type.Object(
  {
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: `with a key whose account awaits its owner's confirmation: seconds to hold the answer until it is confirmed (above ${LONG_POLL_MAX_SECONDS}, or the server's MAX_WAIT_SECONDS, the cap applies); still awaiting when it ends: ask again at once`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const AgentSignupBody = Type.Object(
  {
    email: Type.String({
      maxLength: 254,
      description: "The address of the agent's human owner: the account's address (with e-mail confirmation on, the link goes there)",
    }),
    name: Type.Optional(Type.String({ maxLength: 100, description: "The account's display name (e.g. the agent's name)" })),
    password: Type.Optional(
      Type.String({ maxLength: 1000, description: `Optional (at least ${PASSWORD_MIN_LENGTH} characters): lets a person sign in to the account on the web` }),
    ),
    invite_code: Type.Optional(Type.String({ maxLength: 200, description: 'Needed when signup_mode is "invite"' })),
    key_name: Type.Optional(Type.String({ maxLength: 100, description: 'The name of the API key made with the account (default "agent")' })),
    language: Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('zh')], { description: 'Language of the mails the platform sends (default en)' })),
    time_zone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone the mails show times in, e.g. Asia/Shanghai (default UTC)' })),
  },
  { additionalProperties: false },
);

export const AgentSignupResponse = Type.Object({
  user: UserSchema,
  api_key: CreatedKeyResponse,
  awaiting_confirmation: Type.Boolean({
    description:
      'true: this server confirms e-mail addresses; the key answers 403 account_unconfirmed until the owner opens the mailed link. GET /auth/status?wait=N with the key answers as soon as that happens',
  }),
  confirmation_expires_at: Nullable(Type.String({ description: 'When the mailed link stops working (null: no confirmation needed)' })),
});

export const AdminUserSchema = Type.Object({ ...UserSchema.properties, disabled_at: Nullable(Type.String()) });
export const AdminUsersQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 254, description: 'Case-insensitive part of the e-mail or name' })),
    role: Type.Optional(RoleSchema),
    ...organizerPageQuery,
  },
  { additionalProperties: false },
);
export const PatchUserBody = Type.Object({ role: Type.Optional(RoleSchema), disabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

const InviteCodeFields = {
  id: Type.String(),
  prefix: Type.String(),
  note: Nullable(Type.String()),
  max_uses: Type.Integer(),
  uses: Type.Integer(),
  expires_at: Nullable(Type.String()),
  revoked_at: Nullable(Type.String()),
  created_at: Type.String(),
  created_by: Nullable(Type.String()),
};
export const InviteCodesResponse = Type.Array(Type.Object(InviteCodeFields));
export const CreatedInviteCodeResponse = Type.Object({ ...InviteCodeFields, code: Type.String({ description: 'The code itself: shown once' }) });
export const CreateInviteCodeBody = Type.Object(
  {
    note: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    max_uses: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1 })),
    expires_at: Type.Optional(Nullable(DateTime)),
  },
  { additionalProperties: false },
);

export const ReviewEventsResponse = Type.Array(
  Type.Object({
    event_id: Type.String(),
    event_name: Type.String(),
    status: Type.String(),
    submission_deadline: Type.String(),
    projects: Type.Integer(),
    reviewed: Type.Integer(),
  }),
);
