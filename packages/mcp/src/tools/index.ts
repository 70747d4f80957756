import type { Tool } from '../tool.js';
import { factsAboutTool, graphBetweenTool } from './member-tools.js';
import { promptContextTool, recallTool, searchConversationTool } from './read-tools.js';
import { forgetTool, rememberTool } from './write-tools.js';

/** Every tool the server lists, in listing order. */
export const TOOLS: readonly Tool[] = [
  recallTool,
  promptContextTool,
  searchConversationTool,
  factsAboutTool,
  graphBetweenTool,
  rememberTool,
  forgetTool,
];
