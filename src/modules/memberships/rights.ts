/** What ends a right: the person leaves the team (or organisation), is removed, is demoted below admin, the
 * key is revoked, or the account is deleted. */
export const RIGHT_ENDINGS = ['left', 'removed', 'demoted', 'key_revoked', 'account_deleted'] as const;
export type RightEnding = (typeof RIGHT_ENDINGS)[number];

/** `ends`: the right is gone at once; `kept`: the person keeps it (they still hold what gives it); `none`: the
 * ending cannot concern this right (a key never holds it, ...). */
export type Outcome = 'ends' | 'kept' | 'none';

export type Right = {
  id: string;
  /** The right, and what gives it. */
  what: string;
  on: Record<RightEnding, Outcome>;
  /** How it ends, and where. */
  how: string;
};

const ALL_END: Record<RightEnding, Outcome> = {
  left: 'ends',
  removed: 'ends',
  demoted: 'ends',
  key_revoked: 'ends',
  account_deleted: 'ends',
};
/** A member's right: a demotion keeps it, a key never holds it. */
const MEMBERS: Record<RightEnding, Outcome> = { ...ALL_END, demoted: 'kept', key_revoked: 'none' };

/**
 * Every right that comes from a team or organisation membership, a role or an API key, and what each ending
 * does to it. `Departures` (departures.ts) carries the endings to the modules named here; rights.test.ts proves
 * each row for a former member, a demoted admin and a revoked key, as the row applies.
 */
export const RIGHTS = [
  {
    id: 'api_keys',
    what: 'Team API keys an owner or admin created',
    on: ALL_END,
    how: 'revoked with their creator (Departures.teamDeparture, api-keys.repository)',
  },
  {
    id: 'webhook_endpoints',
    what: 'Webhook endpoints an owner or admin (or a key) registered for a team or an organisation',
    on: ALL_END,
    how: 'paused with pausedAt and pausedReason, the owners and admins told (webhooks/endpoint-pauses.ts)',
  },
  {
    id: 'session_join_links',
    what: "Join links of a team's studio sessions handed out to a member",
    on: MEMBERS,
    how: 'refused to the person when made before they left (sessions/session-departures.ts)',
  },
  {
    id: 'calendar_feeds',
    what: "A member's calendar feed of the team's sessions",
    on: MEMBERS,
    how: 'rotated at the departure; the feed also needs a current membership (sessions/session-departures.ts)',
  },
  {
    id: 'event_streams',
    what: "Events of the team's chat threads and studio sessions on an open /chat/events stream",
    on: MEMBERS,
    how: 'each event is sent to those who may read it when it is dispatched (chat/events/event-hub.ts)',
  },
  {
    id: 'track_shares',
    what: 'Reading and commenting on tracks another team shares with the team',
    on: { ...MEMBERS, key_revoked: 'ends' },
    how: 'read through the membership (or the key) of the team shared with, checked on every request',
  },
  {
    id: 'team_invites',
    what: 'Open invites to the team an owner or admin made',
    on: { ...ALL_END, key_revoked: 'none' },
    how: 'withdrawn with their maker (teams/invite-departures.ts)',
  },
  {
    id: 'organisation_roles',
    what: "An organisation's admin rights, and reading it as a member",
    on: { ...ALL_END, key_revoked: 'none' },
    how: 'read from the membership on every request; endpoints they registered are paused',
  },
  {
    id: 'organisation_invitations',
    what: 'Membership of an organisation, given only by accepting an invitation an owner or admin sent',
    on: { ...ALL_END, key_revoked: 'none' },
    how: 'an invitation stops working when its sender no longer holds the role it gives (organisations/invitations)',
  },
  {
    id: 'pending_reviews',
    what: "Review requests of the team's tracks waiting on a member",
    on: MEMBERS,
    how: 'withdrawn from the person unless another team of theirs holds the track (tracks/reviews/review-departures.ts)',
  },
  {
    id: 'push_notifications',
    what: "Notifications (and their pushes) about the team's content",
    on: MEMBERS,
    how: 'made only for members of the team; push tokens are deleted with the account (notifications/notify.ts)',
  },
  {
    id: 'session_participation',
    what: "Invitations (pending or accepted) to the team's studio sessions",
    on: MEMBERS,
    how: 'deleted at the departure; the team may invite the person again as a guest (sessions/session-departures.ts)',
  },
] as const satisfies readonly Right[];

export type RightId = (typeof RIGHTS)[number]['id'];
