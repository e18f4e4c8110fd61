/** Every table of the service; one file per area. */

export * from './albums.ts';
export * from './chat.ts';
export * from './contacts.ts';
export * from './events.ts';
export * from './files.ts';
export * from './financials.ts';
export * from './follow-ups.ts';
export * from './idempotency.ts';
export * from './identity.ts';
export * from './interviews.ts';
export * from './jobs.ts';
export * from './mail.ts';
export * from './music-tools.ts';
export * from './notifications.ts';
export * from './organisations.ts';
export * from './share-links.ts';
export * from './stream-tickets.ts';
export * from './studio-sessions.ts';
export * from './teams.ts';
export * from './testimonials.ts';
export * from './tours.ts';
export * from './tracks.ts';
export * from './users.ts';
export * from './wallet.ts';
export * from './webhooks.ts';
