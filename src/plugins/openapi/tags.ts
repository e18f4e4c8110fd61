/**
 * The document's tags in the order a newcomer needs them, each with what it covers, and the groups reference
 * pages show them under (`x-tagGroups`). Every tag an operation uses is declared here (a test holds to it).
 */
const GROUPS: { name: string; tags: [name: string, description: string][] }[] = [
  {
    name: 'Getting started',
    tags: [
      ['auth', 'Sign up, sign in, refresh and end sessions; provider sign-in; password and e-mail checks.'],
      [
        'user',
        'The signed-in person: profile, sign-in identities, sessions, preferences, notifications and invitations.',
      ],
      [
        'teams',
        'Teams, their members and roles, status boards and settings: the tenant every resource belongs to.',
      ],
      ['invites', 'Accepting or declining a team invitation by its token.'],
      ['api-keys', 'Team API keys for machines (cron jobs, plugins, scripts), with scopes.'],
    ],
  },
  {
    name: 'Music',
    tags: [
      [
        'tracks',
        'Tracks and their versions, stems, covers, timed comments, reviews, plays and audio analysis.',
      ],
      [
        'track-collections',
        'The caller’s tracks across all their teams, grouped per team and status (for pickers).',
      ],
      ['albums', 'Albums, their track order and their place on the status board.'],
      [
        'share-links',
        'Review links: tracks, versions, albums and playlists shared with people without an account.',
      ],
      [
        'shared',
        'Review links as their guests see them, without an account: what a link shows, unlocking it, comments and plays.',
      ],
      ['files', 'Uploads through signed URLs, registration and downloads.'],
      ['stats', 'Storage use and an overview of a team.'],
    ],
  },
  {
    name: 'Working together',
    tags: [
      [
        'search',
        'One search over tracks, albums, comments, to-dos, chat, voice transcripts, contacts, sessions and interviews.',
      ],
      ['chat', 'Threads, messages, reactions, voice notes and the live event stream.'],
      ['inbox', 'What waits for the signed-in person’s action across their teams.'],
      ['sessions', 'Studio sessions: schedule, participants, files, canvas, recordings and the live stream.'],
      ['session-invitations', 'Accepting or declining a session invitation.'],
      ['session-links', 'Joining a session through a revocable join link.'],
      ['camps', 'Writing camps of an organisation: listening queues, shared files and the week’s sessions.'],
    ],
  },
  {
    name: 'Business',
    tags: [
      ['contacts', 'People and companies a team works with, with lead status and history.'],
      ['tours', 'Tours, their dates and bookings.'],
      ['interviews', 'Interviews with their questions, articles and videos; published ones are public.'],
      ['financials', 'Income and expenses, exact to the cent, with imports and exports.'],
      ['follow-ups', 'Drafting follow-up, thank-you, reminder and introduction messages.'],
    ],
  },
  {
    name: 'Organisations',
    tags: [
      ['organisations', 'Labels and managements that hold several teams: members, roll-ups and pipelines.'],
      ['organisation-invitations', 'Accepting or declining an organisation invitation.'],
    ],
  },
  {
    name: 'Integrations',
    tags: [
      ['webhooks', 'Endpoints that receive signed events, their deliveries and replays.'],
      ['ai-search', 'A search sentence read into track and album filters.'],
      ['wallet', 'Apple and Google Wallet identity passes of the signed-in person.'],
      ['flags', 'The feature flags of the signed-in person.'],
      ['testimonials', 'Published testimonials, for anyone.'],
      ['app-version', 'The latest and the minimum supported app versions per platform.'],
      ['health', 'Liveness and readiness of this process, for load balancers and orchestrators.'],
    ],
  },
];

export const DOCUMENT_TAGS = GROUPS.flatMap((group) =>
  group.tags.map(([name, description]) => ({ name, description })),
);

export const TAG_GROUPS = GROUPS.map((group) => ({
  name: group.name,
  tags: group.tags.map(([name]) => name),
}));
