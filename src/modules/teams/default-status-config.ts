import type { StatusConfig } from '../../db/schema/index.ts';

/** The board a new team starts with; the first status of each list is where new items start. */
export const DEFAULT_STATUS_CONFIG: StatusConfig = {
  tracks: [
    { id: 'idea', name: 'Idea' },
    { id: 'writing', name: 'Writing' },
    { id: 'recording', name: 'Recording' },
    { id: 'mixing', name: 'Mixing' },
    { id: 'mastering', name: 'Mastering' },
    { id: 'ready', name: 'Ready' },
    { id: 'released', name: 'Released' },
  ],
  albums: [
    { id: 'idea', name: 'Idea' },
    { id: 'planning', name: 'Planning' },
    { id: 'in_production', name: 'In production' },
    { id: 'ready', name: 'Ready' },
    { id: 'released', name: 'Released' },
  ],
};
