#!/usr/bin/env node
// Generates the tiny BERT-shaped ONNX "embedding model" + WordPiece tokenizer that the
// @permafrost/embeddings-local unit tests load (packages/embeddings-local/test/fixtures/).
// The output is committed; run this only to regenerate it. Based on Appendix A of the toolchain notes.
//
// It needs onnx-proto@8.0.1, which is deliberately NOT a dependency of the repo. To regenerate:
//   mkdir -p /tmp/onnx-proto && (cd /tmp/onnx-proto && npm init -y >/dev/null && npm i onnx-proto@8.0.1)
//   ONNX_PROTO_DIR=/tmp/onnx-proto node scripts/gen-tiny-model.mjs <out-dir> [--token-type-ids] [--fp32-only]
//
// The graph: Gather(embedding table, input_ids) [+ Gather(type table, token_type_ids)] x attention_mask
// -> last_hidden_state [batch, seq, 8]. Output is byte-for-byte deterministic.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const args = process.argv.slice(2);
const out = args.find((a) => !a.startsWith('--'));
if (!out) {
  console.error('usage: gen-tiny-model.mjs <out-dir> [--token-type-ids] [--fp32-only]');
  process.exit(2);
}
const withTypes = args.includes('--token-type-ids');
const fp32Only = args.includes('--fp32-only');

const base = process.env.ONNX_PROTO_DIR ? path.resolve(process.env.ONNX_PROTO_DIR, 'x.js') : import.meta.url;
const { onnx } = createRequire(base)('onnx-proto');

const vocab = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  '[MASK]',
  'hello',
  'world',
  'good',
  '##bye',
  'the',
  'cat',
  'dog',
  'sat',
  'on',
  'mat',
  'a',
  'quick',
  'brown',
  'fox',
  'discord',
  'bot',
  'message',
  'search',
  '.',
  ',',
  '!',
  '?',
];
const V = vocab.length;
const H = 8;
const emb = [];
for (let i = 0; i < V; i++) for (let j = 0; j < H; j++) emb.push(Math.sin((i + 1) * (j + 1) * 0.37));
const typeEmb = [];
for (let i = 0; i < 2; i++) for (let j = 0; j < H; j++) typeEmb.push(0.05 * Math.cos((i + 1) * (j + 1)));

const i64 = onnx.TensorProto.DataType.INT64;
const f32 = onnx.TensorProto.DataType.FLOAT;
const vi = (name, t, dims) =>
  onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType: t,
        shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
      },
    },
  });
const node = (opType, input, output, attribute = []) =>
  onnx.NodeProto.create({ opType, input, output, attribute });

const initializer = [
  onnx.TensorProto.create({ name: 'emb', dims: [V, H], dataType: f32, floatData: emb }),
  onnx.TensorProto.create({ name: 'axes', dims: [1], dataType: i64, int64Data: [-1] }),
];
const nodes = [node('Gather', ['emb', 'input_ids'], ['g'])];
const inputs = [
  vi('input_ids', i64, ['batch_size', 'sequence_length']),
  vi('attention_mask', i64, ['batch_size', 'sequence_length']),
];
let hidden = 'g';
if (withTypes) {
  initializer.push(
    onnx.TensorProto.create({ name: 'type_emb', dims: [2, H], dataType: f32, floatData: typeEmb }),
  );
  nodes.push(node('Gather', ['type_emb', 'token_type_ids'], ['t']), node('Add', ['g', 't'], ['gt']));
  inputs.push(vi('token_type_ids', i64, ['batch_size', 'sequence_length']));
  hidden = 'gt';
}
nodes.push(
  node(
    'Cast',
    ['attention_mask'],
    ['mf'],
    [onnx.AttributeProto.create({ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: f32 })],
  ),
  node('Unsqueeze', ['mf', 'axes'], ['mu']),
  node('Mul', [hidden, 'mu'], ['last_hidden_state']),
);
const graph = onnx.GraphProto.create({
  name: 'tiny_bert',
  initializer,
  node: nodes,
  input: inputs,
  output: [vi('last_hidden_state', f32, ['batch_size', 'sequence_length', H])],
});
const bytes = onnx.ModelProto.encode(
  onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'permafrost-test',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  }),
).finish();

fs.mkdirSync(path.join(out, 'onnx'), { recursive: true });
for (const f of fp32Only ? ['model.onnx'] : ['model.onnx', 'model_quantized.onnx']) {
  fs.writeFileSync(path.join(out, 'onnx', f), bytes);
}
const json = (v) => `${JSON.stringify(v, null, 2)}\n`;
fs.writeFileSync(
  path.join(out, 'config.json'),
  json({
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: H,
    vocab_size: V,
    max_position_embeddings: 512,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    type_vocab_size: 2,
  }),
);
fs.writeFileSync(
  path.join(out, 'tokenizer_config.json'),
  json({
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 16,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
  }),
);
const sp = (id) => ({ SpecialToken: { id, type_id: 0 } });
fs.writeFileSync(
  path.join(out, 'tokenizer.json'),
  json({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: vocab.slice(0, 5).map((t, id) => ({
      id,
      content: t,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [sp('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, sp('[SEP]')],
      pair: [
        sp('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        sp('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        sp('[SEP]'),
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  }),
);
console.log(`wrote tiny model to ${out}${withTypes ? ' (with token_type_ids)' : ''}`);
