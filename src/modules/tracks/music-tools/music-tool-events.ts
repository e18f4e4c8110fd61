import { type Static, Type } from '@sinclair/typebox';
import { MUSIC_TOOL_OPERATIONS } from '../../../db/schema/index.ts';
import { Id, Uuid } from '../../../shared/schemas.ts';
import { StringEnum } from '../../../shared/string-enum.ts';
import { OwningTeamId } from '../track-events.ts';
import { MusicToolError, MusicToolJob } from './music-tools.schemas.ts';

const ofJob = {
  jobId: Uuid,
  versionId: Id,
  trackId: Id,
  teamId: OwningTeamId,
  operation: StringEnum(MUSIC_TOOL_OPERATIONS),
  parameters: MusicToolJob.properties.parameters,
};

/** The webhook events of music-tool jobs, sent as a job finishes: payload schemas, descriptions and examples. */
export const MUSIC_TOOL_EVENTS = {
  'music_tool.job.succeeded': {
    description:
      'A music-tool job finished well; `result` is the job’s result as GET .../music-tools/{jobId} answers ' +
      'it (the files and stems it made are announced here only, not by version.file_added or stem.created).',
    schema: Type.Object({
      ...ofJob,
      result: Type.Record(Type.String(), Type.Unknown(), {
        description: MusicToolJob.properties.result.description,
      }),
    }),
    example: {
      jobId: '0190a6e4-9d2f-7a10-8b3c-4d5e6f708192',
      versionId: 502,
      trackId: 101,
      teamId: 7,
      operation: 'convert',
      parameters: { format: 'mp3' },
      result: {
        fileId: 1220,
        fileName: 'night-drive-v2 (mp3 preview).mp3',
        contentType: 'audio/mpeg',
        size: 2_880_417,
        durationSeconds: 180.02,
        format: 'mp3',
      },
    },
  },
  'music_tool.job.failed': {
    description:
      'A music-tool job failed for good; `error` says why (as GET .../music-tools/{jobId} answers).',
    schema: Type.Object({ ...ofJob, error: MusicToolError }),
    example: {
      jobId: '0190a6e4-9d2f-7a10-8b3c-4d5e6f708193',
      versionId: 502,
      trackId: 101,
      teamId: 7,
      operation: 'analyze',
      parameters: {},
      error: { code: 'audio_silent', message: 'The audio is silent: there is nothing to analyse' },
    },
  },
} as const;

export type MusicToolEventData<T extends keyof typeof MUSIC_TOOL_EVENTS> = Static<
  (typeof MUSIC_TOOL_EVENTS)[T]['schema']
>;
