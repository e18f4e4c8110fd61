import type { Db } from '../../db/client.ts';
import type { EventLog } from '../../events/event-log.ts';
import type { Clock } from '../../shared/clock.ts';
import { FinancialEvents } from './financial-events.ts';
import { FinancialsService } from './financials.service.ts';
import { FinancialReportsService } from './reports.service.ts';
import { FinancialTransfersService } from './transfers.service.ts';

/** The services of the financials area, spread into the application's services container. */
export function createFinancialsServices(db: Db, clock: Clock, log: EventLog) {
  const events = new FinancialEvents(log);
  return {
    financials: new FinancialsService(db, clock, events),
    financialReports: new FinancialReportsService(db),
    financialTransfers: new FinancialTransfersService(db, clock, events),
  };
}
