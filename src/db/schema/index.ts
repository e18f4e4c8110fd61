/** Every table of the service; one file per area. */
export * from './identity.ts';
export * from './teams.ts';
export * from './users.ts';
