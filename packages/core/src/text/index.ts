export { ANALYZER_ID, indexTerms, normalizeText, queryTerms, tokenize } from './analyze.js';
export { porterStem } from './porter-stemmer.js';
export { STOPWORDS } from './stopwords.js';
