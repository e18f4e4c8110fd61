import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../../test/helpers/context.ts';
import { describeSecurityMatrix, expectAreaAuthClasses } from '../../../test/helpers/security-matrix.ts';
import { EXPECTED, sessionSecurityCases } from './sessions.security-cases.ts';

const ctx = useTestContext();
const cases = sessionSecurityCases(ctx);

describe('studio sessions area routes', () => {
  it('are session-only as the specification marks them, extensions flagged, every one in the matrix', async () => {
    await expectAreaAuthClasses(
      ctx,
      (r) => r.operationId.startsWith('sessions.') && r.operationId !== 'sessions.calendar.feed',
      EXPECTED,
      Object.values(cases).flat(),
    );
  });

  it('serve the calendar feed anonymously, as an extension: its signed URL is the authority', async () => {
    const route = ctx.app.routeTable.find((r) => r.operationId === 'sessions.calendar.feed');
    expect(route).toMatchObject({ method: 'GET', path: '/api/v1/sessions/calendar/{token}.ics' });
    expect(route!.auth.kind).toBe('anonymous');
    const doc = (await ctx.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const operation = doc.paths['/api/v1/sessions/calendar/{token}.ics'].get;
    expect(operation['x-extension']).toBe(true);
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.responses['200'].content)).toEqual(['text/calendar']);
  });
});

describeSecurityMatrix(ctx, [...cases.sessions, ...cases.songs]);
