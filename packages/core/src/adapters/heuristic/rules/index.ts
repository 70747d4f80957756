import type { Rule } from '../rule-types.js';
import { IDENTITY_RULES } from './identity-rules.js';
import { LIFE_RULES } from './life-rules.js';
import { PLACE_RULES } from './place-rules.js';
import { PREFERENCE_RULES } from './preference-rules.js';
import { RELATIONSHIP_RULES } from './relationship-rules.js';
import { WORK_STUDY_RULES } from './work-study-rules.js';

/** Every self-statement rule, most specific first; the first match of a clause wins. */
export const SELF_RULES: readonly Rule[] = [
  ...IDENTITY_RULES,
  ...PLACE_RULES,
  ...WORK_STUDY_RULES,
  ...RELATIONSHIP_RULES,
  ...LIFE_RULES,
  ...PREFERENCE_RULES,
];
