/** The built-in bots. */
export const BOTS = [
  {
    id: 'assistant',
    name: 'Assistant',
    description:
      'Keeps your follow-ups: "remind me to follow up with Maya on Instagram next Friday", "list my ' +
      'follow-ups", "done with Maya".',
  },
] as const;

export type BotId = (typeof BOTS)[number]['id'];

export const findBot = (botId: string) => BOTS.find((bot) => bot.id === botId);
