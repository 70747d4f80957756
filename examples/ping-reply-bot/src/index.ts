export { type PingBotOptions, type RunningBot, startBot } from './bot.js';
export type { ReplyContext } from './memory-context.js';
export { createReplyWriter, type ReplyInput, type ReplyWriter, summaryReply } from './reply-writer.js';
