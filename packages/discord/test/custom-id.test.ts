import { describe, expect, it } from 'vitest';
import { ComponentAction, decodeComponentId, encodeComponentId } from '../src/commands/custom-id.js';

describe('component ids', () => {
  it('round-trip action, invoker, expiry and argument within 100 characters', () => {
    const id = {
      action: ComponentAction.FORGET_CONFIRM,
      invokerId: '123456789012345678',
      expiresAt: 1_900_000_000_000,
      arg: 'fct_01J8Z3K4M5N6P7Q8R9S0T1V2W3',
    };
    const encoded = encodeComponentId(id);
    expect(encoded.length).toBeLessThanOrEqual(100);
    expect(decodeComponentId(encoded)).toEqual(id);
    expect(decodeComponentId(encodeComponentId({ ...id, action: ComponentAction.CANCEL, arg: '' }))).toEqual({
      ...id,
      action: 'no',
      arg: '',
    });
  });

  it('ignores ids of other features and malformed ids', () => {
    expect(decodeComponentId('ticket:close:1')).toBeNull();
    expect(decodeComponentId('pfm:bogus:1:abc')).toBeNull();
    expect(decodeComponentId('pfm:fok:1')).toBeNull();
    expect(decodeComponentId('pfm:fok:1:%%%')).toBeNull();
  });

  it('refuses to build an id Discord would reject', () => {
    expect(() =>
      encodeComponentId({ action: 'fok', invokerId: '1', expiresAt: 1, arg: 'x'.repeat(100) }),
    ).toThrow(RangeError);
  });
});
