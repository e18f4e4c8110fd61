type Row = {
  id: number;
  trackId: number;
  name: string;
  userId: string | null;
  email: string | null;
  roles: string[];
};

type Person = {
  name: string;
  userId: string | null;
  email: string | null;
  roles: Set<string>;
  trackIds: number[];
  collaboratorIds: number[];
};

/** How an entry names its person: by user, by e-mail; by name only when it has neither. */
function keysOf(row: Row): string[] {
  const keys: string[] = [];
  if (row.userId) keys.push(`u:${row.userId}`);
  if (row.email) keys.push(`e:${row.email.trim().toLowerCase()}`);
  if (keys.length === 0) keys.push(`n:${row.name.trim().toLowerCase()}`);
  return keys;
}

/** The order of merged people: by name (any case or accent alike), then by their first entry. */
export const personOrder = {
  key: (p: { name: string; collaboratorIds: number[] }): [string, number] => [
    p.name,
    Math.min(...p.collaboratorIds),
  ],
  shape: ['string', 'number'] as const,
  compare: ([nameA, idA]: [string, number], [nameB, idB]: [string, number]) =>
    nameA.localeCompare(nameB, undefined, { sensitivity: 'base' }) || idA - idB,
};

/**
 * Merges track collaborator entries (in album order) into one entry per person: the same user, else the
 * same e-mail, else (entries with neither) the same name. Roles are united; people come by name.
 */
export function mergeCollaborators(rows: Row[]) {
  const byKey = new Map<string, Person>();
  const people: Person[] = [];
  for (const row of rows) {
    const keys = keysOf(row);
    let person = keys.map((k) => byKey.get(k)).find((p) => p !== undefined);
    if (!person) {
      person = {
        name: row.name,
        userId: null,
        email: null,
        roles: new Set(),
        trackIds: [],
        collaboratorIds: [],
      };
      people.push(person);
    }
    person.userId ??= row.userId;
    person.email ??= row.email;
    for (const role of row.roles) person.roles.add(role);
    if (!person.trackIds.includes(row.trackId)) person.trackIds.push(row.trackId);
    person.collaboratorIds.push(row.id);
    for (const key of keys) byKey.set(key, person);
  }
  return people
    .map((p) => ({ ...p, roles: [...p.roles].sort((a, b) => a.localeCompare(b)) }))
    .sort((a, b) => personOrder.compare(personOrder.key(a), personOrder.key(b)));
}
