import { withQuietCreationStacks } from '../../lib/bridge/quiet-creation-stacks';

describe('withQuietCreationStacks', () => {
  const captured = () => {
    const holder = { stack: '' };
    Error.captureStackTrace(holder);
    return holder.stack;
  };

  test('stack traces format to nothing inside and normally afterwards', () => {
    expect(withQuietCreationStacks(captured)).toBe('');
    expect(captured()).toContain('quiet-creation-stacks.test');
  });

  test('restores the previous formatter when the body throws, and the thrown error keeps its stack', () => {
    const previous = Error.prepareStackTrace;
    let thrown: unknown;
    try {
      withQuietCreationStacks(() => {
        throw new Error('boom');
      });
    } catch (e) {
      thrown = e;
    }
    expect(Error.prepareStackTrace).toBe(previous);
    expect((thrown as Error).stack).toMatch(/^Error: boom\n\s+at /);
  });

  test('a formatter set by someone else (source-map-support, a test runner) is restored', () => {
    const original = Error.prepareStackTrace;
    const custom = (error: Error) => `custom ${error.message}`;
    Error.prepareStackTrace = custom;
    try {
      withQuietCreationStacks(() => undefined);
      expect(Error.prepareStackTrace).toBe(custom);
    } finally {
      Error.prepareStackTrace = original;
    }
  });
});
