export {
  countField,
  idField,
  MAX_ID_CHARS,
  MAX_IDS,
  MAX_TEXT_CHARS,
  RESERVED_IDS,
  textField,
  userIdField,
} from './fields.js';
export { type Checked, checkInput, issuesOf, parseInput, parseNoArgs, schemaInvalid } from './parse-input.js';
