import { describe, expect, it } from 'vitest';
import { escapeHtml, html, inert, safeJumpLink } from '../src/inspector/html.js';
import { loopbackUrl, parsePrometheus } from '../src/inspector/model-usage.js';
import { barChart } from '../src/inspector/svg-charts.js';
import { memberGraphSvg } from '../src/inspector/svg-graph.js';

const HOSTILE = [
  '<script>alert(1)</script>',
  '"onmouseover="alert(1)',
  "'><img src=x onerror=alert(1)>",
  '`x`=',
  'abc\u202Edef\u2066g\u0000h\u001b[31m',
];

describe('inspector HTML escaping', () => {
  it('escapes every interpolated value for text and quoted attributes', () => {
    for (const s of HOSTILE) {
      const out = html`<p title="${s}">${s}</p>`.value;
      expect(out.slice(0, 10)).toBe('<p title="');
      expect(out.match(/</g)).toHaveLength(2);
      expect(out.match(/"/g)).toHaveLength(2);
      expect(out).not.toMatch(/\p{Cc}|[\u202a-\u202e\u2066-\u2069]/u);
    }
    expect(escapeHtml('a & b')).toBe('a &amp; b');
    expect(inert('x\u202Ey')).toBe('x\ufffdy');
    expect(html`${html`<b>${'<i>'}</b>`}`.value).toBe('<b>&lt;i&gt;</b>');
    expect(html`${['<a>', 1, null, false]}`.value).toBe('&lt;a&gt;1');
  });

  it('links only https://discord.com jump links', () => {
    expect(safeJumpLink('https://discord.com/channels/1/2/3')).toBe('https://discord.com/channels/1/2/3');
    for (const url of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://discord.com/channels/1/2/3',
      'https://discord.com.evil.example/x',
      'https://user@discord.com/x',
      'not a url',
    ])
      expect(safeJumpLink(url)).toBeNull();
  });

  it('SVG graphs and charts escape labels', () => {
    const node = { key: 'user:1', label: '<script>x</script>', kind: 'user' as const, href: '/g/1/m/1' };
    const svg = memberGraphSvg(node, [
      {
        other: { key: 'entity:e', label: '</text><svg onload=alert(1)>', kind: 'entity', href: null },
        verb: '"><script>',
        polarity: 'negative',
        outgoing: true,
        weight: 0.5,
      },
    ]).value;
    expect(svg).not.toMatch(/<script|<svg onload|"><script/);
    expect(barChart('<t>', [{ label: '<l>', value: 2 }]).value).not.toMatch(/<t>|<l>/);
  });
});

describe('inspector model usage', () => {
  it('reads the llm counters by purpose and the batch count from Prometheus text', () => {
    const usage = parsePrometheus(
      [
        '# HELP permafrost_llm_calls_total Model calls that answered, by purpose.',
        'permafrost_llm_calls_total{purpose="extraction"} 12',
        'permafrost_llm_calls_total{purpose="reconcile"} 3',
        'permafrost_llm_cost_usd_total{purpose="extraction"} 0.0125',
        'permafrost_ingest_batches_total 7',
        'permafrost_llm_calls_total{purpose="<script>"} NaN',
        'other_metric{purpose="x"} 5',
      ].join('\n'),
    );
    expect(usage.calls).toEqual([
      { label: 'extraction', value: 12 },
      { label: 'reconcile', value: 3 },
    ]);
    expect(usage.costUsd).toEqual([{ label: 'extraction', value: 0.0125 }]);
    expect(usage.batches).toBe(7);
  });

  it('accepts only loopback metrics URLs', () => {
    for (const ok of ['http://127.0.0.1:9464/metrics', 'http://localhost:1/m', 'http://[::1]:9/metrics'])
      expect(loopbackUrl(ok)).not.toBeNull();
    for (const bad of [
      'http://10.0.0.1/metrics',
      'http://example.com/',
      'file:///etc/passwd',
      'http://a@127.0.0.1/',
    ])
      expect(loopbackUrl(bad)).toBeNull();
  });
});
