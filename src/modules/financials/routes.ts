import type { App } from '../../app-types.ts';
import { financialsRoutes } from './financials.routes.ts';
import { financialReportsRoutes } from './reports.routes.ts';
import { financialTransfersRoutes } from './transfers.routes.ts';

/** Every route of the financials area. */
export async function financialsModuleRoutes(app: App) {
  await app.register(financialsRoutes);
  await app.register(financialReportsRoutes);
  await app.register(financialTransfersRoutes);
}
