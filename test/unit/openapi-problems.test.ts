import { describe, expect, it } from 'vitest';
import { commonCodes, documentRoute, shareComponents } from '../../src/docs/openapi.js';
import { ERROR_STATUS } from '../../src/core/errors.js';
import { problems } from '../../src/core/http/schemas.js';

const codesAt = (responses: Record<number, any>, status: number): string[] => responses[status].content['application/problem+json'].schema.properties.code.enum;

describe('problems(): the error answers a route declares', () => {
  it('groups named codes by their status', () => {
    const r = problems('event_not_found', 'registration_closed', 'team_name_taken', 'not_registered');
    expect(Object.keys(r).map(Number).sort()).toEqual([404, 409]);
    expect(codesAt(r, 404)).toEqual(['event_not_found', 'not_registered']);
    expect(codesAt(r, 409)).toEqual(['registration_closed', 'team_name_taken']);
    expect(r[409]!.description).toContain('`team_name_taken`: Team name taken');
  });

  it('expands a bare status to every code of that status', () => {
    const r = problems(410);
    expect(codesAt(r, 410)).toEqual(['invitation_closed', 'invitation_expired', 'invitation_used', 'reset_token_invalid', 'signup_token_invalid']);
    expect(Object.keys(ERROR_STATUS).filter((c) => ERROR_STATUS[c as keyof typeof ERROR_STATUS] === 410)).toHaveLength(5);
  });
});

describe('documentRoute(): what every route of a kind can meet', () => {
  it('adds body errors to a POST with a body, and security from config.auth', () => {
    const route = { method: 'POST', url: '/api/v1/events/:id/submit', config: { auth: true } };
    const schema = { params: {}, body: { type: 'object' }, response: { 201: { type: 'object' }, ...problems('submission_closed') } };
    expect(commonCodes(route, schema)).toEqual(
      expect.arrayContaining([
        'bad_request',
        'payload_too_large',
        'unsupported_media_type',
        'validation_failed',
        'uri_too_long',
        'forbidden',
        'idempotency_key_reused',
      ]),
    );
    const doc = documentRoute(route, schema) as any;
    expect(doc.security).toEqual([{ apiKey: [] }]);
    expect(codesAt(doc.response, 409)).toEqual(['idempotency_key_in_use', 'idempotency_key_reused', 'submission_closed']);
    expect(doc.headers.properties['Idempotency-Key']).toMatchObject({ minLength: 1, maxLength: 255 });
  });

  it('leaves body errors off a GET, forbidden off a reviewer route, and makes the key optional on a public one', () => {
    const route = { method: 'GET', url: '/api/v1/invitations/:token', config: { reviewKeyAllowed: true } };
    const codes = commonCodes(route, { params: {} });
    expect(codes).not.toContain('payload_too_large');
    expect(codes).not.toContain('forbidden');
    const doc = documentRoute(route, { params: {}, response: { 200: { type: 'object' } } }) as any;
    expect(doc.security).toEqual([{}, { apiKey: [] }]);
    expect(doc.headers).toBeUndefined();
    // Only the refusal of a key whose account its owner has not confirmed yet (any route with a key may meet it).
    expect(codesAt(doc.response, 403)).toEqual(['account_unconfirmed']);
  });

  it('gives a route without a success shape a default answer beside its problems', () => {
    const doc = documentRoute({ method: 'POST', url: '/api/v1/mcp', config: { auth: true } }, {}) as any;
    expect(doc.response.default).toBeDefined();
    expect(codesAt(doc.response, 401)).toEqual(['unauthorized']);
  });
});

describe('shareComponents(): the finished document', () => {
  it('refers problems and rate-limit headers to components, and drops methods a 3.1 path item cannot hold', () => {
    const doc = {
      paths: {
        '/api/v1/mcp': {
          post: {
            responses: {
              200: { description: 'ok', headers: { 'RateLimit-Limit': { schema: { type: 'integer' } }, Link: { schema: { type: 'string' } } } },
              ...problems('unauthorized'),
            },
          },
          propfind: { responses: {} },
        },
      },
    };
    const out = shareComponents(JSON.parse(JSON.stringify(doc))) as any;
    const item = out.paths['/api/v1/mcp'];
    expect(Object.keys(item)).toEqual(['post']);
    expect(item.post.responses[401].content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/Problem',
      properties: { code: { enum: ['unauthorized'] } },
    });
    expect(item.post.responses[200].headers).toEqual({
      'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
      Link: { schema: { type: 'string' } },
    });
  });
});
