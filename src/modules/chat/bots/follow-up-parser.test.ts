import { describe, expect, it } from 'vitest';
import { parseCommand } from './follow-up-parser.ts';

// Thursday 26 November 2026, 23:30 UTC: Friday 00:30 in Berlin, Thursday 15:30 in Los Angeles.
const NOW = new Date('2026-11-26T23:30:00Z');

const dueOf = (text: string, timeZone: string) => {
  const command = parseCommand(text, NOW, timeZone);
  if (command.kind !== 'create') throw new Error(`not a reminder: ${command.kind}`);
  return command.dueAt?.toISOString() ?? null;
};

describe('the assistant’s reading of messages', () => {
  it('reads the person, the network and the note of a reminder', () => {
    expect(
      parseCommand('remind me to follow up with Maya on Instagram next Friday', NOW, 'UTC'),
    ).toMatchObject({
      kind: 'create',
      person: 'Maya',
      network: 'instagram',
      note: 'remind me to follow up with Maya on Instagram next Friday',
    });
    expect(parseCommand('remind me to call Jo Smith tomorrow at 3pm', NOW, 'UTC')).toMatchObject({
      person: 'Jo Smith',
      network: null,
    });
    expect(parseCommand('follow up with @maya.music via TikTok', NOW, 'UTC')).toMatchObject({
      person: '@maya.music',
      network: 'tiktok',
      dueAt: null,
    });
  });

  it('reads dates forward in the user’s zone, a bare day at 09:00 there', () => {
    expect(dueOf('follow up with Maya next Friday', 'Europe/Berlin')).toBe('2026-12-04T08:00:00.000Z');
    expect(dueOf('follow up with Maya next Friday', 'America/Los_Angeles')).toBe('2026-12-04T17:00:00.000Z');
    // Near midnight the same words name different days.
    expect(dueOf('follow up with Maya tomorrow', 'Europe/Berlin')).toBe('2026-11-28T08:00:00.000Z');
    expect(dueOf('follow up with Maya tomorrow', 'America/Los_Angeles')).toBe('2026-11-27T17:00:00.000Z');
    expect(dueOf('remind me to call Jo tomorrow at 3pm', 'Europe/Berlin')).toBe('2026-11-28T14:00:00.000Z');
    expect(dueOf('remind me to call Jo tomorrow at 3pm', 'America/Los_Angeles')).toBe(
      '2026-11-27T23:00:00.000Z',
    );
    expect(dueOf('follow up with Maya', 'UTC')).toBeNull();
  });

  it('knows lists, done and everything else', () => {
    expect(parseCommand('list my follow-ups', NOW, 'UTC')).toEqual({ kind: 'list' });
    expect(parseCommand('What’s due?', NOW, 'UTC')).toEqual({ kind: 'list' });
    expect(parseCommand('done with Maya', NOW, 'UTC')).toEqual({ kind: 'done', person: 'Maya' });
    expect(parseCommand('hello', NOW, 'UTC')).toEqual({ kind: 'help' });
    expect(parseCommand('remind me', NOW, 'UTC')).toEqual({ kind: 'help' });
    expect(parseCommand('\u0000'.repeat(50), NOW, 'Not/AZone')).toEqual({ kind: 'help' });
  });
});
