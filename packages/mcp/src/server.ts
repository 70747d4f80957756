import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger, Memory } from '@permafrost/core';
import { McpFailure, outcomeOf, toRpcError } from './errors.js';
import { CallMeter } from './metering.js';
import {
  classify,
  listResources,
  listResourceTemplates,
  type ResourceContext,
  readResource,
} from './resources.js';
import { GuildScope } from './scope.js';
import { jsonSchemaOf, type Tool } from './tool.js';
import { TOOLS } from './tools/index.js';

export interface MemoryMcpOptions {
  /** The memory served (the caller opens and closes it). */
  readonly memory: Memory;
  /** The guilds served: a call naming any other guild is refused with GUILD_OUT_OF_SCOPE. */
  readonly guilds: readonly string[];
  /** Serve admin resources (member exports). Over HTTP this also requires a bearer token. */
  readonly admin?: boolean;
  /** Receives one `mcp.call` event per tool call or resource read (names, ids, codes; no content). */
  readonly logger?: Logger;
  /** Server name and version announced to clients. */
  readonly name?: string;
  readonly version?: string;
}

/** One Memory served over MCP: shared scope and metering, a fresh protocol object per connection. */
export interface MemoryMcp {
  readonly scope: GuildScope;
  readonly meter: CallMeter;
  readonly admin: boolean;
  /** A protocol server for one transport (stdio, or one HTTP request in stateless mode). */
  createServer(): Server;
}

function toolListing(tool: Tool) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input, 'input') as { type: 'object' },
    outputSchema: jsonSchemaOf(tool.output, 'output') as { type: 'object' },
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.destructive === true,
      openWorldHint: false,
    },
  };
}

export function createMemoryMcp(options: MemoryMcpOptions): MemoryMcp {
  const scope = new GuildScope(options.guilds);
  const meter = new CallMeter(options.logger);
  const admin = options.admin === true;
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  const listing = TOOLS.map(toolListing);
  const resourceCtx: ResourceContext = { memory: options.memory, scope, meter, admin };

  const callTool = async (name: string, args: unknown): Promise<CallToolResult> => {
    const t0 = performance.now();
    let guildId: string | null = null;
    try {
      const tool = byName.get(name);
      if (!tool) throw new McpFailure('TOOL_NOT_FOUND', 'no tool with this name');
      const call = tool.prepare(args, options.memory);
      scope.check(call.guildId);
      guildId = call.guildId;
      const structured = await call.run();
      meter.record({ kind: 'tool', name, guildId, outcome: 'ok', durationMs: performance.now() - t0 });
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (error) {
      meter.record({
        kind: 'tool',
        name: byName.has(name) ? name : 'unknown',
        guildId,
        outcome: outcomeOf(error),
        durationMs: performance.now() - t0,
      });
      throw toRpcError(error);
    }
  };

  const read = async (uri: string) => {
    const t0 = performance.now();
    const { kind, guildId } = classify(uri, scope);
    try {
      const result = await readResource(uri, resourceCtx);
      meter.record({
        kind: 'resource',
        name: kind,
        guildId,
        outcome: 'ok',
        durationMs: performance.now() - t0,
      });
      return result;
    } catch (error) {
      meter.record({
        kind: 'resource',
        name: kind,
        guildId,
        outcome: outcomeOf(error),
        durationMs: performance.now() - t0,
      });
      throw toRpcError(error);
    }
  };

  return {
    scope,
    meter,
    admin,
    createServer() {
      const server = new Server(
        { name: options.name ?? 'permafrost', version: options.version ?? '0.0.0' },
        {
          capabilities: { tools: {}, resources: {} },
          instructions: `Long-term memory of the guild(s) ${scope.guilds.join(', ')}. Reads need an audience (the channel the answer is shown in).`,
        },
      );
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
      server.setRequestHandler(CallToolRequestSchema, (request) =>
        callTool(request.params.name, request.params.arguments),
      );
      server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: listResources(resourceCtx) }));
      server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
        resourceTemplates: listResourceTemplates(resourceCtx),
      }));
      server.setRequestHandler(ReadResourceRequestSchema, (request) => read(request.params.uri));
      return server;
    },
  };
}
