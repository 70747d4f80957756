/**
 * Heuristic profile digest: the subject's facts, strongest first, folded into one third-person
 * paragraph of at most maxWords words. Facts that start with the subject's name share one
 * sentence ("Alice loves Rust, lives in Seattle and works at Acme"); others follow verbatim.
 */
import type { SummarizeInput } from '../../extraction/task-contracts.js';
import { indexTerms } from '../../text/analyze.js';

const words = (text: string): number => (text.trim().length === 0 ? 0 : text.trim().split(/\s+/).length);
const clean = (fact: string): string =>
  fact
    .replace(/\s+/g, ' ')
    .replace(/[\s.;]+$/, '')
    .trim();

function nearDuplicate(a: string, b: string): boolean {
  const x = new Set(indexTerms(a));
  const y = new Set(indexTerms(b));
  if (x.size === 0 || y.size === 0) return false;
  let shared = 0;
  for (const t of x) if (y.has(t)) shared++;
  return shared / Math.min(x.size, y.size) >= 0.9;
}

function joinPredicates(name: string, predicates: readonly string[]): string {
  if (predicates.length === 0) return '';
  if (predicates.length === 1) return `${name} ${predicates[0]}.`;
  return `${name} ${predicates.slice(0, -1).join(', ')} and ${predicates[predicates.length - 1]}.`;
}

function render(name: string, predicates: readonly string[], others: readonly string[]): string {
  return [joinPredicates(name, predicates), ...others.map((o) => `${o}.`)]
    .filter((s) => s.length > 0)
    .join(' ');
}

/** Deterministic digest; empty when there are no facts or maxWords < 1. */
export function summarizeHeuristically(input: SummarizeInput): string {
  const name = input.subjectName.trim();
  const limit = Math.floor(input.maxWords);
  if (limit < 1 || name.length === 0) return '';
  const prefix = `${name.toLowerCase()} `;
  const kept: string[] = [];
  const predicates: string[] = [];
  const others: string[] = [];
  for (const raw of input.facts) {
    const fact = clean(raw);
    if (fact.length === 0 || kept.some((k) => nearDuplicate(k, fact))) continue;
    const isPredicate = fact.toLowerCase().startsWith(prefix) && !/[;]/.test(fact);
    const nextPredicates = isPredicate ? [...predicates, fact.slice(prefix.length)] : predicates;
    const nextOthers = isPredicate ? others : [...others, fact];
    if (words(render(name, nextPredicates, nextOthers)) > limit) continue;
    kept.push(fact);
    if (isPredicate) predicates.push(fact.slice(prefix.length));
    else others.push(fact);
  }
  const text = render(name, predicates, others);
  if (text.length > 0 || input.facts.length === 0) return text;
  const first = clean(input.facts[0] ?? '');
  return first.split(/\s+/).slice(0, limit).join(' ');
}
