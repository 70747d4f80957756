import type { GuildStats, OpsMetrics } from '@permafrost/core';
import { html } from '../html.js';
import { barChart } from '../svg-charts.js';
import { layout } from './layout.js';

export function metricsPage(stats: GuildStats, metrics: OpsMetrics, admin: boolean): string {
  const purposes = Object.entries(metrics.meter.byPurpose);
  const extraction = Object.entries(metrics.counters)
    .filter(([k]) => k.startsWith('extraction') || k.startsWith('llm'))
    .map(([label, value]) => ({ label, value }));
  return layout(
    { title: 'Metrics', guildId: stats.guildId, admin },
    html`<h1>Metrics</h1>
<h2>Stored in the database</h2>
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
<h2>Model usage counted by this process</h2>
<p class="notice">Extraction runs in the bot's process (or <code>permafrost run-pending</code>); its meter is per process.
The inspector shows its own counters here, and the bot's through <code>memory.ops.metrics()</code> / Prometheus.</p>
<div class="charts">
${barChart(
  'extraction calls by purpose',
  purposes.map(([label, t]) => ({ label, value: t.calls })),
)}
${barChart(
  'cost by purpose (USD)',
  purposes.map(([label, t]) => ({ label, value: t.costUsd })),
  4,
)}
${barChart('extraction and model counters', extraction)}
</div>`,
  );
}
