import type { StoredTourDate, TourStatus } from '../../db/schema/index.ts';
import { type ErrorDetail, errors } from '../../shared/errors.ts';
import { isCountryCode } from './countries.ts';

export type TourDateInput = {
  date: string;
  city?: string | null | undefined;
  country?: string | null | undefined;
  venue?: string | null | undefined;
  capacity?: number | null | undefined;
  ticketUrl?: string | null | undefined;
};

/** A tour as a client writes it (create without teamId, or replace). */
export type TourInput = {
  name: string;
  status?: TourStatus | undefined;
  startsOn?: string | null | undefined;
  endsOn?: string | null | undefined;
  dates?: TourDateInput[] | undefined;
  notes?: string | null | undefined;
};

/** Every editable column of a tour, each set: what a create inserts and a replace writes. */
export type TourValues = {
  name: string;
  status: TourStatus;
  startsOn: string | null;
  endsOn: string | null;
  dates: StoredTourDate[];
  notes: string | null;
};

const trimmed = (value: string | null | undefined) => value?.trim() ?? null;

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function storedDate(input: TourDateInput, at: string, problems: ErrorDetail[]): StoredTourDate {
  const country = input.country?.toUpperCase() ?? null;
  if (country !== null && !isCountryCode(country))
    problems.push({ path: `${at}/country`, message: 'must be an ISO 3166-1 alpha-2 country code' });
  const ticketUrl = input.ticketUrl ?? null;
  if (ticketUrl !== null && !isWebUrl(ticketUrl))
    problems.push({ path: `${at}/ticketUrl`, message: 'must be an absolute http or https URL' });
  return {
    date: input.date,
    city: trimmed(input.city),
    country,
    venue: trimmed(input.venue),
    capacity: input.capacity ?? null,
    ticketUrl,
  };
}

/**
 * The stored values of a tour written whole: defaults for what is left out, dates in date order (a stable
 * sort keeps shows of one day as sent), and the range from the first and last date unless given. 400 with
 * every problem at once: unknown countries, URLs that do not parse, a range that ends before it starts.
 */
export function tourValues(input: TourInput): TourValues {
  const problems: ErrorDetail[] = [];
  const dates = (input.dates ?? [])
    .map((date, i) => storedDate(date, `/body/dates/${i}`, problems))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const startsOn = input.startsOn ?? dates[0]?.date ?? null;
  const endsOn = input.endsOn ?? dates.at(-1)?.date ?? null;
  if (startsOn !== null && endsOn !== null && endsOn < startsOn) {
    problems.push(
      input.endsOn == null
        ? { path: '/body/startsOn', message: `must not be after endsOn (${endsOn}, the last date)` }
        : {
            path: '/body/endsOn',
            message:
              input.startsOn == null
                ? `must not be before startsOn (${startsOn}, the first date)`
                : 'must not be before startsOn',
          },
    );
  }
  if (problems.length > 0) throw errors.validation(problems);
  return {
    name: input.name.trim(),
    status: input.status ?? 'planning',
    startsOn,
    endsOn,
    dates,
    notes: input.notes ?? null,
  };
}
