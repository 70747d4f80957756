export { type PingBotOptions, type RunningBot, startBot } from './bot.js';
export { createReplyWriter, type ReplyInput, type ReplyWriter, summaryReply } from './reply-writer.js';
