import { type Actor, actorOf, NO_ACTOR } from '../../events/actor.ts';
import type { EventInput } from '../../events/event-log.ts';
import type { Principal } from '../../plugins/auth.ts';

/** Who acted: a caller of the API, or (null) an operator at the command line, recorded without an actor. */
export type Acting = Principal | null;

/** What changed: the event's type, its subject and what it says. */
export type OrganisationChange = Pick<EventInput, 'type' | 'subject' | 'payload'>;

const actorOfActing = (acting: Acting): Actor => (acting ? actorOf(acting) : NO_ACTOR);

/**
 * The event of a change of the organisation itself (its name, members, places, camps, RSVPs): one event of
 * the organisation, which the members of its teams read and its notification rules look at.
 */
export const organisationEvent = (
  acting: Acting,
  organisationId: number,
  change: OrganisationChange,
): EventInput => ({ ...change, actor: actorOfActing(acting), organisationId });

/** The event of a change that concerns one team of the organisation (its joining or leaving, its submissions). */
export const organisationTeamEvent = (
  acting: Acting,
  teamId: number,
  organisationId: number,
  change: OrganisationChange,
): EventInput => ({
  ...change,
  actor: actorOfActing(acting),
  teamId,
  payload: { organisationId, ...change.payload },
});
