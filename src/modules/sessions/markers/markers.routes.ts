import type { App } from '../../../app-types.ts';
import { principalOf } from '../../../plugins/auth.ts';
import { CSV_CELL_RULES } from '../../../shared/csv.ts';
import { pageOf } from '../../../shared/pagination.ts';
import { NoContent } from '../../../shared/schemas.ts';
import { bodyMayBeLeftOut } from '../../users/empty-body.ts';
import { RecordingParams } from '../recordings/recordings.schemas.ts';
import { MEMBERS, READERS, SESSION_ONLY, session, sessionExtension } from '../route-auth.ts';
import { MARKER_CSV_COLUMNS } from './marker-exports.ts';
import {
  CreateMarkerBody,
  DeleteMarkerBody,
  Marker,
  MarkerExportQuery,
  MarkerListQuery,
  MarkerPage,
  MarkerParams,
  MarkerPatchBody,
} from './markers.schemas.ts';
import { MAX_EXPORTED_MARKERS } from './markers.service.ts';

const ExportResponse = {
  description:
    `The markers in time order (at most ${MAX_EXPORTED_MARKERS}), as an attachment. csv (default): RFC 4180, ` +
    `UTF-8, CRLF, a header row (${MARKER_CSV_COLUMNS.join(', ')}); ${CSV_CELL_RULES}. audacity: a label track to import in ` +
    'Audacity (File > Import > Labels): `start<TAB>end<TAB>label` lines in seconds, start = end. reaper: ' +
    "the CSV of REAPER's Region/Marker Manager (#,Name,Start,End,Length,Color, written as csv is), labels on " +
    'one line, markers M1, M2, ... at ' +
    'minutes:seconds.milliseconds, colours RRGGBB.',
  content: {
    'text/csv': {
      schema: { type: 'string', description: 'csv or reaper' },
      example:
        `${MARKER_CSV_COLUMNS.join(',')}\r\n` +
        '77,11,Second chorus: double the vocal,95.25,#f5a623,0193a5f2-7d2f-7c4b-8a21-4d3e5f6a7b8c,' +
        '2026-03-14T10:04:10.000Z\r\n',
    },
    'text/plain': {
      schema: { type: 'string', description: 'audacity' },
      example: '95.250000\t95.250000\tSecond chorus: double the vocal\n',
    },
  },
};

/** Markers of a recording: list, place, move, remove, export. */
export async function markersRoutes(app: App) {
  const markers = app.services.sessionMarkers;
  const base = '/api/v1/sessions/:sessionId/recordings/:recordingId/markers';

  app.get(
    base,
    {
      ...session,
      schema: {
        operationId: 'sessions.markers.list',
        summary: "A recording's markers in time order",
        description:
          `${SESSION_ONLY} ${READERS} teamId, when given, must be the session's team (else 404); 404 for a recording ` +
          'of another session. Keyset pages: pass nextCursor as cursor.',
        params: RecordingParams,
        querystring: MarkerListQuery,
        response: { 200: MarkerPage },
      },
    },
    async (request) => {
      const { teamId, ...page } = request.query;
      return markers.list(principalOf(request), request.params, teamId, pageOf(page));
    },
  );

  app.post(
    base,
    {
      ...session,
      schema: {
        operationId: 'sessions.markers.create',
        summary: 'Place a marker in a recording (also while it runs live)',
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404). positionSeconds must ` +
          'lie within the recording when its duration is known (its audio, or a stopped live recording), ' +
          'else 400. The colour is stored in lower case. Emits session.marker.created on the event stream.',
        params: RecordingParams,
        body: CreateMarkerBody,
        response: { 201: Marker },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await markers.create(principalOf(request), request.params, request.body)),
  );

  app.get(
    `${base}/export`,
    {
      ...sessionExtension,
      schema: {
        operationId: 'sessions.markers.export',
        summary: "A recording's markers as a file Audacity, REAPER or a spreadsheet imports",
        description:
          `${SESSION_ONLY} ${READERS} teamId, when given, must be the session's team (else 404). Sent as an attachment ` +
          '(Content-Disposition) named after the recording, with Cache-Control: no-store.',
        params: RecordingParams,
        querystring: MarkerExportQuery,
        response: { 200: ExportResponse },
      },
    },
    async (request, reply) => {
      const { teamId, format } = request.query;
      const file = await markers.export(principalOf(request), request.params, teamId, format ?? 'csv');
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );

  app.patch(
    `${base}/:markerId`,
    {
      ...session,
      schema: {
        operationId: 'sessions.markers.update',
        summary: "Change a marker's label, position or colour",
        description:
          `${SESSION_ONLY} ${MEMBERS} teamId, when given, must be the session's team (else 404); 404 for a ` +
          'marker of another recording. A new position must lie within the recording when its duration is ' +
          'known (400). Emits session.marker.updated (with the changed fields) on the event stream.',
        params: MarkerParams,
        body: MarkerPatchBody,
        response: { 200: Marker },
      },
    },
    async (request) => markers.update(principalOf(request), request.params, request.body),
  );

  app.delete(
    `${base}/:markerId`,
    {
      ...session,
      ...bodyMayBeLeftOut,
      schema: {
        operationId: 'sessions.markers.delete',
        summary: 'Remove a marker',
        description:
          `${SESSION_ONLY} ${MEMBERS} The JSON body may carry teamId, which must then be the session's team ` +
          '(else 404); it may be left out. 404 for a marker of another recording. Emits ' +
          'session.marker.deleted on the event stream.',
        params: MarkerParams,
        body: DeleteMarkerBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await markers.remove(principalOf(request), request.params, request.body.teamId);
      return reply.code(204).send(null);
    },
  );
}
