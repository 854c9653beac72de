import { parseCitation, selects } from './upstream';

describe('the contract helpers', () => {
  test('a citation is owner/repo:path@ref line N', () => {
    expect(parseCitation('a/b:charts/x/values.yaml@x-1.2.3 line 7')).toEqual({ repo: 'a/b', path: 'charts/x/values.yaml', ref: 'x-1.2.3', line: 7 });
    expect(parseCitation('a/b:c.yaml@v1 lines 3-5').line).toBe(3);
    expect(() => parseCitation('a/b:c.yaml line 3')).toThrow("not a citation 'owner/repo:path@ref line N': a/b:c.yaml line 3");
  });

  test.each([
    [{ matchLabels: { a: '1' } }, { a: '1', b: '2' }, true],
    [{ matchLabels: { a: '1' } }, { a: '2' }, false],
    [{ matchExpressions: [{ key: 'ns', operator: 'In', values: ['x', 'y'] }] }, { ns: 'y' }, true],
    [{ matchExpressions: [{ key: 'ns', operator: 'In', values: ['x'] }] }, { other: 'x' }, false],
    [{ matchExpressions: [{ key: 'ns', operator: 'NotIn', values: ['x'] }] }, {}, true],
    [{ matchExpressions: [{ key: 'ns', operator: 'Exists' }] }, { ns: '' }, true],
    [{ matchExpressions: [{ key: 'ns', operator: 'DoesNotExist' }] }, { ns: '' }, false],
    [{}, { any: 'thing' }, true],
  ])('selector %j selects %j: %s', (selector, labels, expected) => {
    expect(selects(selector, labels)).toBe(expected);
  });
});
