import { importServerHistory } from './import-history.js';

// DISCORD_TOKEN=… GUILD_ID=… [PERMAFROST_DB=omni-bot.db] node dist/import-history-main.js
const { DISCORD_TOKEN: token, GUILD_ID: guildId, PERMAFROST_DB: dbPath } = process.env;
if (!token || !guildId) {
  console.error('Set DISCORD_TOKEN and GUILD_ID (and optionally PERMAFROST_DB).');
  process.exit(1);
}
const stop = new AbortController();
process.once('SIGINT', () => stop.abort()); // Ctrl-C: stop after the current page; run again to continue
const result = await importServerHistory({
  token,
  guildId,
  ...(dbPath ? { dbPath } : {}),
  signal: stop.signal,
  onProgress: (p) => {
    if (p.done) console.log(`channel ${p.channelId}: ${p.fetched} read, ${p.stored} stored`);
  },
});
console.log(
  `${result.stopped ? `Stopped (${result.stopped})` : 'Done'}: ${result.fetched} messages read, ${result.stored} stored, ${result.duplicates} already known, ${result.skipped} skipped.`,
);
