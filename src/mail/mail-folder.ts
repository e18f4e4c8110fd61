import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AddressObject, simpleParser } from 'mailparser';

export type FiledMail = {
  file: string;
  from: string;
  to: string;
  subject: string;
  date: string;
  text: string;
};

const addressesOf = (field: AddressObject | AddressObject[] | undefined): string[] =>
  [field ?? []].flat().flatMap((group) => group.value.map((entry) => (entry.address ?? '').toLowerCase()));

/**
 * The newest message written to the mail folder (to `to` when given), decoded: the `.eml` files encode long
 * lines (quoted-printable), so a link is read from here rather than from the file. Undefined when none.
 */
export async function latestFiledMail(directory: string, to?: string): Promise<FiledMail | undefined> {
  const names = (await readdir(directory).catch(() => [] as string[]))
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .reverse();
  for (const name of names) {
    const parsed = await simpleParser(await readFile(join(directory, name)));
    const recipients = addressesOf(parsed.to);
    if (to !== undefined && !recipients.includes(to.toLowerCase())) continue;
    return {
      file: join(directory, name),
      from: parsed.from?.text ?? '',
      to: recipients.join(', '),
      subject: parsed.subject ?? '',
      date: parsed.date?.toISOString() ?? '',
      text: parsed.text ?? '',
    };
  }
  return undefined;
}
