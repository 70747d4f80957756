export { type OmniBotOptions, type RunningBot, startBot } from './bot.js';
export { type ImportServerHistoryOptions, importServerHistory } from './import-history.js';
export { createReplyWriter, type ReplyInput, type ReplyWriter, summaryReply } from './reply-writer.js';
