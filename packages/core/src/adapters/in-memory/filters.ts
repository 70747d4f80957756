import { type Fact, isActive, isValidAt } from '../../model/fact.js';
import type { FactFilter, FactValidity } from '../../ports/fact-store.js';

export function passesValidity(fact: Fact, validity: FactValidity | undefined): boolean {
  if (validity === undefined || validity === 'active') return isActive(fact);
  if (validity === 'any') return true;
  return isValidAt(fact, validity.asOf);
}

export function passesScope(fact: Fact, filter: FactFilter): boolean {
  if (fact.guildId !== filter.guildId) return false;
  if (filter.serverOnly) return fact.subjectId === null;
  if (filter.subjectIds) {
    if (fact.subjectId === null) return filter.includeServer === true;
    return filter.subjectIds.includes(fact.subjectId);
  }
  return true;
}

export function passesFilter(fact: Fact, filter: FactFilter): boolean {
  return passesScope(fact, filter) && passesValidity(fact, filter.validity);
}
