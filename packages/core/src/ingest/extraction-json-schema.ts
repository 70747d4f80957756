import { EntityKind, FactCategory } from '../model/enums.js';
import type { JsonSchema } from '../ports/chat-llm.js';

const nullable = (type: string) => ({ type: [type, 'null'] });

/** Strict JSON schema of the extraction output (mirrors `extractionOutputSchema`). */
export const EXTRACTION_JSON_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['operations'],
  properties: {
    operations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [
          'subjectToken',
          'speakerToken',
          'text',
          'category',
          'confidence',
          'sourceMessageIndexes',
          'entities',
          'relations',
        ],
        properties: {
          subjectToken: { type: 'string' },
          speakerToken: nullable('string'),
          text: { type: 'string' },
          category: { type: 'string', enum: Object.values(FactCategory) },
          confidence: { type: 'number' },
          sourceMessageIndexes: { type: 'array', items: { type: 'integer' } },
          entities: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name', 'kind'],
              properties: {
                name: { type: 'string' },
                kind: { type: 'string', enum: Object.values(EntityKind) },
              },
            },
          },
          relations: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['verb', 'fromToken', 'toToken', 'fromEntity', 'toEntity'],
              properties: {
                verb: { type: 'string' },
                fromToken: nullable('string'),
                toToken: nullable('string'),
                fromEntity: nullable('string'),
                toEntity: nullable('string'),
              },
            },
          },
        },
      },
    },
  },
};
