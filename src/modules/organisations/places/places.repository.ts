import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { buildings, studios } from '../../../db/schema/index.ts';

export type BuildingRow = typeof buildings.$inferSelect;

const buildingKey = sql<string>`lower(${buildings.name})`;
const studioKey = sql<string>`lower(${studios.name})`;

/** The organisation's buildings by name, after the cursor `[lower(name), id]`. */
export function listBuildings(db: Db, organisationId: number, limit: number, after?: [string, number]) {
  return db
    .select({ ...getTableColumns(buildings), nameKey: buildingKey })
    .from(buildings)
    .where(
      and(
        eq(buildings.organisationId, organisationId),
        after ? sql`(${buildingKey}, ${buildings.id}) > (${after[0]}, ${after[1]}::integer)` : undefined,
      ),
    )
    .orderBy(asc(buildingKey), asc(buildings.id))
    .limit(limit);
}

export async function findBuilding(db: Db, organisationId: number, buildingId: number) {
  const [row] = await db
    .select()
    .from(buildings)
    .where(and(eq(buildings.id, buildingId), eq(buildings.organisationId, organisationId)));
  return row;
}

export async function insertBuilding(db: Db, values: typeof buildings.$inferInsert) {
  const [row] = await db.insert(buildings).values(values).returning();
  return row!;
}

export async function updateBuilding(
  db: Db,
  organisationId: number,
  buildingId: number,
  changes: Partial<typeof buildings.$inferInsert>,
) {
  const [row] = await db
    .update(buildings)
    .set(changes)
    .where(and(eq(buildings.id, buildingId), eq(buildings.organisationId, organisationId)))
    .returning();
  return row;
}

export async function deleteBuilding(db: Db, organisationId: number, buildingId: number) {
  const rows = await db
    .delete(buildings)
    .where(and(eq(buildings.id, buildingId), eq(buildings.organisationId, organisationId)))
    .returning({ id: buildings.id });
  return rows.length > 0;
}

function selectStudios(db: Db) {
  return db
    .select({
      id: studios.id,
      organisationId: studios.organisationId,
      buildingId: studios.buildingId,
      name: studios.name,
      building: {
        id: buildings.id,
        name: buildings.name,
        address: buildings.address,
        timezone: buildings.timezone,
      },
      createdAt: studios.createdAt,
      updatedAt: studios.updatedAt,
      nameKey: studioKey,
    })
    .from(studios)
    .innerJoin(buildings, eq(buildings.id, studios.buildingId));
}

/** The organisation's studios with their buildings, by name, after the cursor `[lower(name), id]`. */
export function listStudios(db: Db, organisationId: number, limit: number, after?: [string, number]) {
  return selectStudios(db)
    .where(
      and(
        eq(studios.organisationId, organisationId),
        after ? sql`(${studioKey}, ${studios.id}) > (${after[0]}, ${after[1]}::integer)` : undefined,
      ),
    )
    .orderBy(asc(studioKey), asc(studios.id))
    .limit(limit);
}

export async function findStudio(db: Db, organisationId: number, studioId: number) {
  const [row] = await selectStudios(db).where(
    and(eq(studios.id, studioId), eq(studios.organisationId, organisationId)),
  );
  return row;
}

export async function insertStudio(db: Db, values: typeof studios.$inferInsert) {
  const [row] = await db.insert(studios).values(values).returning({ id: studios.id });
  return row!.id;
}

export async function updateStudio(
  db: Db,
  organisationId: number,
  studioId: number,
  changes: Partial<typeof studios.$inferInsert>,
) {
  const rows = await db
    .update(studios)
    .set(changes)
    .where(and(eq(studios.id, studioId), eq(studios.organisationId, organisationId)))
    .returning({ id: studios.id });
  return rows.length > 0;
}

export async function deleteStudio(db: Db, organisationId: number, studioId: number) {
  const rows = await db
    .delete(studios)
    .where(and(eq(studios.id, studioId), eq(studios.organisationId, organisationId)))
    .returning({ id: studios.id });
  return rows.length > 0;
}
