import { describe, expect, it } from 'vitest';
import { CommandError, run } from './run.js';

describe('run', () => {
  it('resolves with stdout and feeds stdin', async () => {
    await expect(run('cat', [], { input: 'hello' })).resolves.toBe('hello');
  });

  it('survives a child that exits without reading its input (EPIPE on stdin must not crash the station)', async () => {
    // 4 MB does not fit the pipe: the rest of the write fails once `true` has exited.
    const input = 'x'.repeat(4 * 1024 * 1024);
    for (let i = 0; i < 3; i++) await expect(run('true', [], { input })).resolves.toBe('');
    await expect(run('false', [], { input })).rejects.toBeInstanceOf(CommandError);
  });
});
