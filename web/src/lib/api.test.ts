import { describe, expect, it } from 'vitest';
import { buildUrl } from './api';

describe('buildUrl', () => {
  it('fills and encodes the path parameters of a route named as the API document does', () => {
    expect(buildUrl('/events/{id}/registrations/{rid}/approve', { id: 'evt 1', rid: 'reg/2' })).toBe('/api/v1/events/evt%201/registrations/reg%2F2/approve');
    expect(buildUrl('/site')).toBe('/api/v1/site');
  });

  it('refuses a route whose parameter has no value', () => {
    expect(() => buildUrl('/events/{id}', {})).toThrow('/events/{id}: no value for {id}');
  });

  it('leaves out empty query values and keeps the rest', () => {
    expect(buildUrl('/events', {}, { status: 'open,active', mine: true, limit: 24, cursor: null, q: '', track_id: undefined })).toBe(
      '/api/v1/events?status=open%2Cactive&mine=true&limit=24',
    );
  });
});
