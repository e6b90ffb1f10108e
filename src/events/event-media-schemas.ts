import { Type } from 'typebox';

export const MediaParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  kind: Type.Union([Type.Literal('cover'), Type.Literal('logo')], { description: 'cover: the wide banner image; logo: the square mark' }),
});

export const UploadQuery = Type.Object(
  {
    filename: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: "the uploaded file's name, if you want its extension checked against the content (it is never stored or used as a path)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const GetQuery = Type.Object({ v: Type.Optional(Type.String({ maxLength: 64, description: 'the version in cover_url / logo_url (caching only)' })) });

export const MediaInfoSchema = Type.Object({
  kind: Type.String(),
  url: Type.String({ description: 'where the image is served (the event’s cover_url / logo_url)' }),
  content_type: Type.String({ description: 'image/png, image/jpeg or image/webp: what the bytes are' }),
  size: Type.Integer({ description: 'bytes' }),
  width: Type.Integer(),
  height: Type.Integer(),
  sha256: Type.String(),
  updated_at: Type.String(),
});
