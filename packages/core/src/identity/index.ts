export { aliasRank, aliasWeight, isValidAlias, looksLikeSnowflake, normalizeAlias } from './aliases.js';
