import { csvRows } from '../../../shared/csv.ts';
import type { MarkerRow } from './markers.repository.ts';
import type { MarkerExportFormat } from './markers.schemas.ts';

export const MARKER_CSV_COLUMNS = [
  'id',
  'recordingId',
  'label',
  'positionSeconds',
  'color',
  'createdBy',
  'createdAt',
] as const;

function csv(markers: MarkerRow[]): string {
  return csvRows([
    [...MARKER_CSV_COLUMNS],
    ...markers.map((m) => [
      String(m.id),
      String(m.recordingId),
      m.label,
      String(m.positionSeconds),
      m.color,
      m.createdBy,
      m.createdAt.toISOString(),
    ]),
  ]);
}

/** A label on one line without tabs: Audacity's label files are tab-separated lines. */
const oneLine = (label: string) => label.replace(/[\t\r\n\u2028\u2029]+/g, ' ');

/** Audacity's label track: `start<TAB>end<TAB>label` per line, seconds; a point label has start = end. */
function audacity(markers: MarkerRow[]): string {
  return markers
    .map((m) => {
      const at = m.positionSeconds.toFixed(6);
      return `${at}\t${at}\t${oneLine(m.label)}\n`;
    })
    .join('');
}

/** A position as REAPER writes it in its default time format, minutes:seconds.milliseconds (`1:05.250`). */
export function reaperTime(seconds: number): string {
  const millis = Math.round(seconds * 1000);
  const minutes = Math.floor(millis / 60_000);
  const rest = ((millis % 60_000) / 1000).toFixed(3).padStart(6, '0');
  return `${minutes}:${rest}`;
}

/**
 * The marker list of REAPER's Region/Marker Manager (import and export): `#,Name,Start,End,Length,Color`,
 * markers numbered M1, M2, ... with no end or length, colours as RRGGBB.
 */
function reaper(markers: MarkerRow[]): string {
  return csvRows([
    ['#', 'Name', 'Start', 'End', 'Length', 'Color'],
    ...markers.map((m, i) => [
      `M${i + 1}`,
      oneLine(m.label),
      reaperTime(m.positionSeconds),
      '',
      '',
      m.color.slice(1).toUpperCase(),
    ]),
  ]);
}

export const MARKER_EXPORTS: Record<
  MarkerExportFormat,
  { contentType: string; suffix: string; write: (markers: MarkerRow[]) => string }
> = {
  csv: { contentType: 'text/csv; charset=utf-8; header=present', suffix: 'markers.csv', write: csv },
  audacity: { contentType: 'text/plain; charset=utf-8', suffix: 'labels.txt', write: audacity },
  reaper: {
    contentType: 'text/csv; charset=utf-8; header=present',
    suffix: 'reaper-markers.csv',
    write: reaper,
  },
};
