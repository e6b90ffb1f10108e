import { Type, type Static } from 'typebox';

const Language = Type.Union([Type.Literal('en'), Type.Literal('zh')]);

const Switches = Type.Object(
  {
    registration: Type.Boolean({ description: 'Mail when your registration is approved or rejected' }),
    team: Type.Boolean({ description: 'Mail when a teammate joins or leaves your team' }),
    results: Type.Boolean({ description: "Mail when results are published, with your team's rank" }),
  },
  { additionalProperties: false },
);

export const SettingsSchema = Type.Object({
  name: Type.Union([Type.String(), Type.Null()], { description: 'Display name shown to teammates and organizers' }),
  email: Type.String(),
  language: Language,
  language_set: Type.Boolean({ description: 'false: never chosen (mails are in English)' }),
  time_zone: Type.Union([Type.String(), Type.Null()], { description: 'IANA zone times in mails are shown in; null = never chosen (UTC)' }),
  mail_time_zone: Type.String({ description: 'The zone mails use now: time_zone, or UTC' }),
  notifications: Switches,
});

export const PatchSettingsBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100, description: 'Display name (1 to 100 characters after trimming)' })),
    language: Type.Optional(Language),
    time_zone: Type.Optional(Type.Union([Type.String({ maxLength: 64, description: 'An IANA zone name, e.g. Europe/Berlin' }), Type.Null()])),
    notifications: Type.Optional(Type.Partial(Switches, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export type Settings = Static<typeof SettingsSchema>;
export type PatchSettings = Static<typeof PatchSettingsBody>;
