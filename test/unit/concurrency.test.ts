import { describe, expect, it } from 'vitest';
import { settleAll } from '../../shared/concurrency';

describe('settleAll', () => {
  it('waits for every promise before it rejects with the first failure', async () => {
    const ended: string[] = [];
    const later = new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => {
      ended.push('later');
    });
    const failing = Promise.reject(new Error('first'));

    await expect(settleAll([failing, later, Promise.reject(new Error('second'))])).rejects.toThrow('first');
    expect(ended).toEqual(['later']);
  });

  it('resolves when all resolve, undefined entries included', async () => {
    await expect(settleAll([Promise.resolve(1), undefined])).resolves.toBeUndefined();
  });
});
