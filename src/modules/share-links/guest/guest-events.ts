import type { Db } from '../../../db/client.ts';
import { NO_ACTOR } from '../../../events/actor.ts';
import type { EventLog } from '../../../events/event-log.ts';
import type { SHARE_LINK_EVENTS, ShareLinkEventData } from '../share-link-events.ts';
import type { WayIn } from './way-ins.repository.ts';

type Type = keyof typeof SHARE_LINK_EVENTS;
type Rest<T extends Type> = Omit<
  ShareLinkEventData<T>,
  'shareLinkId' | 'recipientId' | 'recipientEmail' | 'teamId'
>;

/** Records what a guest did through `wayIn` on the event log, in `tx` (no actor: guests have no account). */
export function recordGuestEvent<T extends Type>(
  events: EventLog,
  tx: Db,
  wayIn: WayIn,
  type: T,
  rest: Rest<T>,
) {
  const { link } = wayIn;
  return events.record(tx, {
    type,
    subject: { type: 'share_link', id: link.id },
    actor: NO_ACTOR,
    teamId: link.teamId,
    payload: {
      shareLinkId: link.id,
      recipientId: wayIn.recipientId,
      recipientEmail: wayIn.email,
      teamId: link.teamId,
      ...rest,
    },
  });
}
