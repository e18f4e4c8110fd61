import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import { storableText } from '../../shared/text.ts';
import * as repo from './testimonials.repository.ts';
import { LIMITS } from './testimonials.schemas.ts';

export const TESTIMONIAL_USAGE = `  testimonial add --quote Q --author A [--role R] [--unpublished]
                                                      add a testimonial (prints its id)
  testimonial list                                    list testimonials (id, published, author, quote)
  testimonial publish|unpublish ID                    show or hide a testimonial
  testimonial remove ID                               delete a testimonial`;

/** The parsed command-line options (`--quote`, `--author`, `--role`, `--unpublished`). */
export type TestimonialOptions = Readonly<Record<string, unknown>>;

/** A text option: present, storable, trimmed and within its length. */
function text(
  options: TestimonialOptions,
  name: 'quote' | 'author' | 'role',
  usage: (message: string) => Error,
): string | undefined {
  const given = options[name];
  const value = typeof given === 'string' ? given.trim() : undefined;
  if (value === undefined || value === '') return undefined;
  if (!storableText(value)) throw usage(`--${name} holds characters that cannot be stored`);
  if (value.length > LIMITS[name]) throw usage(`--${name} may have at most ${LIMITS[name]} characters`);
  return value;
}

function idOf(args: string[], usage: (message: string) => Error): number {
  const id = Number(args[0]);
  if (
    args.length !== 1 ||
    !/^\d+$/.test(args[0] ?? '') ||
    !Number.isSafeInteger(id) ||
    id < 1 ||
    id > 2_147_483_647
  )
    throw usage('give the testimonial id: a positive integer');
  return id;
}

/**
 * `tmw testimonial <add|list|publish|unpublish|remove>`: answers the text to print; `usage` makes the error
 * for a wrong invocation.
 */
export async function testimonialCommand(
  db: Db,
  clock: Clock,
  args: string[],
  options: TestimonialOptions,
  usage: (message: string) => Error,
): Promise<string> {
  const [action, ...rest] = args;
  switch (action) {
    case 'add': {
      const quote = text(options, 'quote', usage);
      const author = text(options, 'author', usage);
      if (!quote || !author) throw usage('--quote and --author are required');
      const id = await repo.insertTestimonial(db, {
        quote,
        author,
        role: text(options, 'role', usage) ?? null,
        published: options.unpublished !== true,
        now: clock.now(),
      });
      return String(id);
    }
    case 'list': {
      const rows = await repo.listAll(db);
      return rows
        .map((r) => {
          const by = r.role ? `${r.author} (${r.role})` : r.author;
          return `${r.id}\t${r.published ? 'published' : 'unpublished'}\t${by}\t${r.quote.replace(/\s+/g, ' ')}`;
        })
        .join('\n');
    }
    case 'publish':
    case 'unpublish': {
      const id = idOf(rest, usage);
      if (!(await repo.setPublished(db, id, action === 'publish', clock.now())))
        throw usage(`no testimonial ${id}`);
      return `testimonial ${id} ${action}ed`;
    }
    case 'remove': {
      const id = idOf(rest, usage);
      if (!(await repo.deleteTestimonial(db, id))) throw usage(`no testimonial ${id}`);
      return `testimonial ${id} removed`;
    }
    default:
      throw usage(action ? `unknown testimonial command: ${action}` : 'testimonial needs a command');
  }
}
