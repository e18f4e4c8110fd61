import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import type { WebhookOutbox } from '../webhooks/outbox.ts';
import { FinancialEvents } from './financial-events.ts';
import { FinancialsService } from './financials.service.ts';
import { FinancialReportsService } from './reports.service.ts';
import { FinancialTransfersService } from './transfers.service.ts';

/** The services of the financials area, spread into the application's services container. */
export function createFinancialsServices(db: Db, clock: Clock, outbox: WebhookOutbox) {
  const events = new FinancialEvents(outbox);
  return {
    financials: new FinancialsService(db, clock, events),
    financialReports: new FinancialReportsService(db),
    financialTransfers: new FinancialTransfersService(db, clock, events),
  };
}
