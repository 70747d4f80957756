import { COMMAND_GATE, classifyCommandHeuristically } from '../extraction/command-rules.js';
import { toStrictJsonSchema } from '../extraction/strict-json-schema.js';
import { type CommandClassification, commandOutputSchema } from '../extraction/task-contracts.js';
import { callStructured } from '../ingest/structured-call.js';
import { CommandAction, MeterPurpose } from '../model/enums.js';
import type { ChatLLM } from '../ports/chat-llm.js';
import type { Logger } from '../ports/logger.js';

export type { CommandClassification };

const COMMAND_JSON_SCHEMA = toStrictJsonSchema(commandOutputSchema);

const SYSTEM = `Classify a chat message addressed to a bot with long-term memory. action is "remember" (the user wants something stored), "forget" (wants something removed), "update" (corrects something stored), "query" (asks what the bot knows), or "none". targetText is the thing to remember, forget or update, in the user's words. confidence is your certainty (0 to 1).`;

/**
 * Memory commands in chat. A regex gate runs first: without a match there is no model call and
 * the answer is `none`. With a match the small model decides; if it fails (or there is none) the
 * heuristic classifier answers.
 */
export async function classifyCommand(
  text: string,
  deps: { llm: ChatLLM | null; structuredMode: 'strict' | 'json_object'; logger?: Logger },
): Promise<CommandClassification> {
  const trimmed = text.trim().slice(0, 2000);
  if (!COMMAND_GATE.test(trimmed)) return { action: CommandAction.NONE, targetText: '', confidence: 0 };
  if (!deps.llm) return classifyCommandHeuristically(trimmed);
  try {
    const result = await callStructured({
      llm: deps.llm,
      schema: commandOutputSchema,
      jsonSchema: COMMAND_JSON_SCHEMA,
      mode: deps.structuredMode,
      name: 'command_output',
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: trimmed },
      ],
      purpose: MeterPurpose.CLASSIFY_COMMAND,
      maxTokens: 200,
      task: { kind: 'classify_command', input: { text: trimmed } },
    });
    return result.value;
  } catch (error) {
    deps.logger?.({ level: 'warn', event: 'classify.failed', error });
    return classifyCommandHeuristically(trimmed);
  }
}
