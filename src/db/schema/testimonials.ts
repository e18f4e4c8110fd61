import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';

/** Quotes shown on the public site (`GET /api/v1/testimonials`); operators manage them with `tmw testimonial`. */
export const testimonials = pgTable(
  'testimonials',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    quote: text().notNull(),
    author: text().notNull(),
    role: text(),
    published: boolean().notNull().default(true),
    ...timestamps(),
  },
  (t) => [index('testimonials_published_idx').on(t.id).where(sql`${t.published}`)],
);
