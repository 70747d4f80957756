import type { GuildStats } from '@permafrost/core';
import { html } from '../html.js';
import type { ModelUsage } from '../model-usage.js';
import { barChart } from '../svg-charts.js';
import { layout } from './layout.js';

const SOURCE: Readonly<Record<ModelUsage['source'], string>> = {
  bot: "read from the bot's metrics endpoint (--metrics-url)",
  process:
    "counted by the inspector's own process. Extraction runs in the bot's process, whose meter is per process: start the inspector with --metrics-url pointing at the bot's Prometheus endpoint (memory.ops.metrics().prometheus()) to chart the bot's numbers here.",
  unreachable: 'the --metrics-url endpoint did not answer (nothing is charted)',
};

export function metricsPage(stats: GuildStats, usage: ModelUsage, admin: boolean): string {
  return layout(
    { title: 'Metrics', guildId: stats.guildId, admin },
    html`<h1>Metrics</h1>
<h2>Queue and memory of this guild (from the database)</h2>
<div class="charts">
${barChart('queue', [
  { label: 'pending', value: stats.pending },
  { label: 'in flight', value: stats.inFlight },
  { label: 'dead letters', value: stats.deadLetters },
  { label: 'processed', value: stats.processed },
])}
${barChart(
  'facts by tier',
  Object.entries(stats.byTier).map(([label, value]) => ({ label, value })),
)}
${barChart('graph', [
  { label: 'members', value: stats.users },
  { label: 'entities', value: stats.entities },
  { label: 'relations', value: stats.relations },
  { label: 'aliases', value: stats.aliases },
])}
</div>
<h2>Model usage (all guilds)</h2>
<p class="notice source-${usage.source}">Model usage ${SOURCE[usage.source]}</p>
<div class="charts">
${barChart('model calls by purpose', usage.calls)}
${barChart('cost by purpose (USD)', usage.costUsd, 4)}
${barChart('failed calls by purpose', usage.failedCalls)}
${barChart('prompt tokens by purpose', usage.promptTokens)}
${barChart('extraction', [{ label: 'batches completed', value: usage.batches }])}
</div>`,
  );
}
