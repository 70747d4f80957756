import { startBot } from './bot.js';

const {
  DISCORD_TOKEN: token,
  PERMAFROST_DB: dbPath,
  PERMAFROST_LLM: llm,
  PERMAFROST_INSTANCE: instanceId,
} = process.env;
if (!token) {
  console.error('Set DISCORD_TOKEN (and optionally PERMAFROST_DB, PERMAFROST_LLM).');
  process.exit(1);
}
const bot = await startBot({
  ...(instanceId ? { instanceId } : {}),
  token,
  dbPath: dbPath ?? 'omni-bot.db',
  ...(llm ? { llm } : {}),
  logger: (e) => {
    if (e.level === 'warn' || e.level === 'error') console.error(e.level, e.event, e.data ?? '');
  },
});
console.log(
  `Logged in as ${bot.client.user.tag}. Learning from everyone; /memory is registered. Run more processes on the same database for failover.`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void bot.stop().then(() => process.exit(0));
  });
