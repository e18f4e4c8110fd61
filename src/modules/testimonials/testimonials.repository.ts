import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { testimonials } from '../../db/schema/index.ts';

const shown = {
  id: testimonials.id,
  quote: testimonials.quote,
  author: testimonials.author,
  role: testimonials.role,
};

/** Published testimonials, newest first, after the id `before` when given (keyset). */
export function listPublished(db: Db, limit: number, before: number | undefined) {
  return db
    .select(shown)
    .from(testimonials)
    .where(
      and(eq(testimonials.published, true), before === undefined ? undefined : lt(testimonials.id, before)),
    )
    .orderBy(desc(testimonials.id))
    .limit(limit);
}

/** Every testimonial, published or not, newest first (for operators). */
export function listAll(db: Db) {
  return db
    .select({ ...shown, published: testimonials.published, createdAt: testimonials.createdAt })
    .from(testimonials)
    .orderBy(desc(testimonials.id));
}

export async function insertTestimonial(
  db: Db,
  values: { quote: string; author: string; role: string | null; published: boolean; now: Date },
): Promise<number> {
  const { now, ...fields } = values;
  const [row] = await db
    .insert(testimonials)
    .values({ ...fields, createdAt: now, updatedAt: now })
    .returning({ id: testimonials.id });
  return row!.id;
}

/** Whether a testimonial with this id was there to delete. */
export async function deleteTestimonial(db: Db, id: number): Promise<boolean> {
  const rows = await db
    .delete(testimonials)
    .where(eq(testimonials.id, id))
    .returning({ id: testimonials.id });
  return rows.length > 0;
}

/** Whether a testimonial with this id was there to change. */
export async function setPublished(db: Db, id: number, published: boolean, now: Date): Promise<boolean> {
  const rows = await db
    .update(testimonials)
    .set({ published, updatedAt: now })
    .where(eq(testimonials.id, id))
    .returning({ id: testimonials.id });
  return rows.length > 0;
}
