import { type TSchema, Type } from '@sinclair/typebox';
import { TOUR_STATUSES } from '../../db/schema/index.ts';
import { CalendarDate, HttpUrl, Id, Page, PageQuery, Timestamp } from '../../shared/schemas.ts';
import { StringEnum } from '../../shared/string-enum.ts';

export const MAX_TOUR_DATES = 500;
export const MAX_CAPACITY = 10_000_000;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Label = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', ...(description ? { description } : {}) });

const Status = StringEnum(TOUR_STATUSES, {
  description: 'planning (the default), announced, on_sale, completed or cancelled',
});

const Country = Type.String({
  minLength: 2,
  maxLength: 2,
  pattern: '^[A-Za-z]{2}$',
  description: 'ISO 3166-1 alpha-2 code (DE, US, GB, ...; XK for Kosovo); stored in capitals',
});

const EXAMPLE_DATE = {
  date: '2026-05-08',
  city: 'Berlin',
  country: 'DE',
  venue: 'Astra Kulturhaus',
  capacity: 1500,
  ticketUrl: 'https://tickets.example.com/luna-vale-berlin',
};

const TourDateInput = Type.Object(
  {
    date: CalendarDate,
    city: Type.Optional(Nullable(Label(200))),
    country: Type.Optional(Nullable(Country)),
    venue: Type.Optional(Nullable(Label(200))),
    capacity: Type.Optional(
      Nullable(
        Type.Integer({ minimum: 1, maximum: MAX_CAPACITY, description: 'Tickets or places, above 0' }),
      ),
    ),
    ticketUrl: Type.Optional(
      Nullable({
        ...HttpUrl,
        description: 'Where tickets are sold: an absolute http(s) URL the URL parser accepts (else 400)',
      }),
    ),
  },
  {
    title: 'TourDateInput',
    description: 'One show as a client writes it: the date, the rest optional (null or left out: none)',
    examples: [EXAMPLE_DATE],
  },
);

const RANGE_RULE =
  'startsOn and endsOn default to the first and the last of the dates (null without dates); a value given ' +
  'wins over the dates. endsOn must not be before startsOn.';

/** The fields a client writes on a tour besides its name (create and replace). */
const editable = {
  status: Type.Optional(Status),
  startsOn: Type.Optional(Nullable({ ...CalendarDate, description: 'First day of the tour' })),
  endsOn: Type.Optional(Nullable({ ...CalendarDate, description: 'Last day of the tour' })),
  dates: Type.Optional(
    Type.Array(TourDateInput, {
      maxItems: MAX_TOUR_DATES,
      description: `The shows, up to ${MAX_TOUR_DATES}; kept in date order (shows of one day in the order sent)`,
    }),
  ),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
};

const Name = Label(200, 'The tour name (surrounding spaces are trimmed)');

export const CreateTourBody = Type.Object(
  { teamId: Id, name: Name, ...editable },
  {
    title: 'TourCreate',
    description: `New tours start as planning unless status says otherwise. ${RANGE_RULE}`,
    examples: [
      {
        teamId: 7,
        name: 'Night Drives Tour 2026',
        status: 'announced',
        dates: [
          EXAMPLE_DATE,
          { date: '2026-05-10', city: 'Hamburg', country: 'DE', venue: 'Uebel & Gefährlich', capacity: 800 },
        ],
        notes: 'Support act to be confirmed.',
      },
    ],
  },
);

export const ReplaceTourBody = Type.Object(
  { name: Name, ...editable },
  {
    description:
      'Replaces every editable field: a field left out returns to its default (status planning, dates ' +
      `empty, notes null, startsOn and endsOn derived from the dates). ${RANGE_RULE}`,
    title: 'TourReplace',
    examples: [
      {
        name: 'Night Drives Tour 2026',
        status: 'on_sale',
        dates: [EXAMPLE_DATE],
        notes: 'Support: Glass Harbour.',
      },
    ],
  },
);

export const TourDate = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
    city: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2, in capitals' })),
    venue: Nullable(Type.String()),
    capacity: Nullable(Type.Integer({ description: 'Tickets or places' })),
    ticketUrl: Nullable(Type.String({ description: 'An http(s) URL' })),
  },
  { title: 'TourDate', description: 'One show of a tour', examples: [EXAMPLE_DATE] },
);

const EXAMPLE_CURRENT_COVER = {
  id: 61,
  fileName: 'night-drives-tour.jpg',
  mediaType: 'image/jpeg',
  url: 'https://api.example.com/api/v1/files/download?key=t7%2Ff61&expires=1773484200&sig=9e1f3a',
  urlExpiresAt: '2026-03-14T10:30:00.000Z',
  isPublic: true,
  publicUrl: 'https://api.example.com/api/v1/public/tour-covers/Xk3v9QpL2mN8rT5wY7zA1bC4dE6fG0hJ',
};

/** The cover a tour shows. */
export const TourCurrentCover = Type.Object(
  {
    id: Id,
    fileName: Type.String(),
    mediaType: Type.String(),
    url: Type.String({ description: 'Signed URL to show the image' }),
    urlExpiresAt: Timestamp,
    isPublic: Type.Boolean(),
    publicUrl: Nullable(
      Type.String({ description: 'The stable URL anyone may fetch it at; null if private' }),
    ),
  },
  {
    title: 'TourCurrentCover',
    description: 'The current cover with a signed URL; null when the tour has none',
    examples: [EXAMPLE_CURRENT_COVER],
  },
);

export const Tour = Type.Object(
  {
    id: Id,
    teamId: Id,
    name: Type.String(),
    status: Status,
    startsOn: Nullable(Type.String({ format: 'date' })),
    endsOn: Nullable(Type.String({ format: 'date' })),
    dates: Type.Array(TourDate),
    notes: Nullable(Type.String()),
    cover: Nullable(TourCurrentCover),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'Tour',
    description: 'A tour of a team',
    examples: [
      {
        id: 9,
        teamId: 7,
        name: 'Night Drives Tour 2026',
        status: 'announced',
        startsOn: '2026-05-08',
        endsOn: '2026-05-08',
        dates: [EXAMPLE_DATE],
        notes: 'Support act to be confirmed.',
        cover: EXAMPLE_CURRENT_COVER,
        createdAt: '2026-03-14T09:30:00.000Z',
        updatedAt: '2026-03-14T09:30:00.000Z',
      },
    ],
  },
);

export const TourPage = Page(Tour);

export const TourListQuery = Type.Object({
  teamId: Id,
  status: Type.Optional(Status),
  from: Type.Optional({
    ...CalendarDate,
    description: 'Only tours still running or ahead on this day: endsOn (else startsOn) on or after it',
  }),
  ...PageQuery,
});
