import { V7Generator } from 'uuidv7';
import type { Clock } from '../../shared/clock.ts';

/**
 * UUIDv7 ids of threads and messages, stamped with the service's clock: they sort by creation time, and
 * within one process strictly increase (the generator's counter orders ids made in the same millisecond).
 */
export class ChatIds {
  private readonly generator = new V7Generator();

  constructor(private readonly clock: Clock) {}

  next(): string {
    return this.generator.generateOrResetWithTs(this.clock.now().getTime()).toString();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A UUID as the database writes it (lower case): what chat cursors hold. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
