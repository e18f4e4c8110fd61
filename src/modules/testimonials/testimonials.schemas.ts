import { Type } from '@sinclair/typebox';
import { Id, Page, PageQuery } from '../../shared/schemas.ts';

/** Longest texts an operator may store (`tmw testimonial add`). */
export const LIMITS = { quote: 2000, author: 200, role: 200 } as const;

export const Testimonial = Type.Object(
  {
    id: Id,
    quote: Type.String({ maxLength: LIMITS.quote }),
    author: Type.String({ maxLength: LIMITS.author }),
    role: Type.Union([Type.String({ maxLength: LIMITS.role }), Type.Null()], {
      description: 'What the author does, e.g. "Producer, Berlin"; null when not given',
    }),
  },
  {
    title: 'Testimonial',
    examples: [
      {
        id: 3,
        quote: 'We finished "Night Drives" with every mix, note and booking in one place.',
        author: 'Luna Vale',
        role: 'Artist, Berlin',
      },
    ],
  },
);

export const TestimonialPage = Page(Testimonial);

export const TestimonialsQuery = Type.Object(PageQuery);
