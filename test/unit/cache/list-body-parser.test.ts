import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ListBodyParser, type ListMeta } from '../../../src/runtime/cache/list-body-parser.ts';

/** Pushes `body` in chunks of `size` bytes, parsing once `minParseBytes` of items wait: the items in order, then the metadata. */
function parse(body: Buffer, size: number, minParseBytes?: number): { items: unknown[]; meta: ListMeta } {
  const parser = new ListBodyParser(minParseBytes === undefined ? {} : { minParseBytes });
  const items: unknown[] = [];
  for (let i = 0; i < body.length; i += size) {
    items.push(...parser.push(body.subarray(i, i + size)));
  }
  const end = parser.end();
  return { items: [...items, ...end.items], meta: end.meta };
}

describe('ListBodyParser', () => {
  const list = {
    kind: 'ConfigMapList',
    apiVersion: 'v1',
    metadata: { resourceVersion: '42', continue: 'next-page' },
    items: [
      { metadata: { name: 'a', annotations: { tricky: 'x"}]{[\\', 'ends-in-backslash': 'c:\\' } } },
      { metadata: { name: 'b' }, data: { text: 'é€😀 and "quotes" \\" \\\\"', nested: '[[{}]]' } },
      { metadata: { name: 'c', labels: { items: 'not the list' } }, data: {} },
      // Longer than the bytes read one by one: crossed by indexOf, escapes and all.
      {
        metadata: { name: 'd' },
        data: { long: `${'a'.repeat(40)}"${'b'.repeat(30)}\\"}${'c'.repeat(50)}\\` },
      },
    ],
  };
  const body = Buffer.from(JSON.stringify(list));

  it('yields every item and the metadata however the body is chunked and parsed, a byte at a time included', () => {
    for (const minParseBytes of [1, 40, 200, undefined])
      for (let size = 1; size <= body.length; size++) {
        const what = `chunks of ${size}, parsed from ${minParseBytes ?? 'the default'} bytes`;
        const { items, meta } = parse(body, size, minParseBytes);
        assert.deepEqual(items, list.items, what);
        assert.deepEqual(meta, { resourceVersion: '42', continue: 'next-page' }, what);
      }
  });

  it('hands out the items a chunk completes with that chunk, the last one at the end', () => {
    const parser = new ListBodyParser({ minParseBytes: 1 });
    const cut = body.indexOf('"name":"b"');
    assert.deepEqual(parser.push(body.subarray(0, cut)), [list.items[0]]);
    assert.deepEqual(parser.push(body.subarray(cut)), list.items.slice(1, -1));
    assert.deepEqual(parser.end(), {
      items: list.items.slice(-1),
      meta: { resourceVersion: '42', continue: 'next-page' },
    });
  });

  it('gathers items until enough bytes wait for one parse, and hands out the rest at the end', () => {
    const parser = new ListBodyParser({ minParseBytes: body.length + 1 });
    assert.deepEqual(parser.push(body), []);
    assert.deepEqual(parser.end().items, list.items);
  });

  it('takes the fields in any order, as lists of custom resources come, and no continue when empty', () => {
    const reordered = Buffer.from(
      '{"items":[{"kind":"Gadget"}] , "kind":"GadgetList","metadata":{"continue":"","resourceVersion":"7"}}',
    );
    assert.deepEqual(parse(reordered, 5), {
      items: [{ kind: 'Gadget' }],
      meta: { resourceVersion: '7', continue: undefined },
    });
    assert.deepEqual(parse(Buffer.from('{"metadata":{"resourceVersion":"9"},"items":[]}'), 4).items, []);
  });

  it('streams a custom resource list as the API server writes it: its items first, then kind and metadata', () => {
    const gadget = (name: string): object => ({
      apiVersion: 'test.tsoperator.dev/v1',
      kind: 'Gadget',
      metadata: { name },
      spec: { size: 1 },
    });
    const body = Buffer.from(
      `{"apiVersion":"test.tsoperator.dev/v1","items":[${['a', 'b', 'c'].map((n) => JSON.stringify(gadget(n))).join(',')}],` +
        '"kind":"GadgetList","metadata":{"continue":"","resourceVersion":"12"}}',
    );
    const parser = new ListBodyParser({ minParseBytes: 1 });
    assert.deepEqual(parser.push(body), [gadget('a'), gadget('b')], 'handed out before the end');
    assert.deepEqual(parser.end(), {
      items: [gadget('c')],
      meta: { resourceVersion: '12', continue: undefined },
    });
  });

  it('parses the rest at the end when what stands between items was inside one', () => {
    const nested = {
      metadata: { resourceVersion: '5' },
      items: [
        { metadata: { name: 'plain' } },
        {
          metadata: { name: 'templates' },
          spec: { templates: [{ metadata: { name: 'x' } }, { metadata: {} }] },
        },
        { metadata: { name: 'after' } },
      ],
    };
    const bytes = Buffer.from(JSON.stringify(nested));
    const parser = new ListBodyParser({ minParseBytes: 1 });
    // The last `},{"metadata":` of this first part is the one inside the templates.
    const cut = bytes.indexOf('{}}]');
    assert.deepEqual(parser.push(bytes.subarray(0, cut)), [], 'a cut inside an item does not parse');
    assert.deepEqual(parser.push(bytes.subarray(cut)), [], 'nor is another guess made');
    assert.deepEqual(parser.end().items, nested.items);
  });

  it('parses at the end a body whose items are not written compactly', () => {
    const pretty = Buffer.from(JSON.stringify(list, null, 2));
    const parser = new ListBodyParser({ minParseBytes: 1 });
    assert.deepEqual(parser.push(pretty), []);
    assert.deepEqual(parser.end(), {
      items: list.items,
      meta: { resourceVersion: '42', continue: 'next-page' },
    });
  });

  it('rejects a body that ends early or is not JSON', () => {
    assert.throws(() => parse(body.subarray(0, body.length - 10), 64), SyntaxError);
    assert.throws(() => parse(Buffer.from('{"items":[{"a":1}'), 64), SyntaxError);
    assert.throws(() => parse(Buffer.from('{"items":[{"a":tru}]}'), 64), SyntaxError);
  });
});
