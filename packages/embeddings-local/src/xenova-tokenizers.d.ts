// transformers.js 2.17.2 has no "exports" map and ships types only for its main entry. The embedder
// imports just its tokenizer module (no sharp, no image/audio code); these are that module's types.
declare module '@xenova/transformers/src/tokenizers.js' {
  export { AutoTokenizer, PreTrainedTokenizer } from '@xenova/transformers';
}
