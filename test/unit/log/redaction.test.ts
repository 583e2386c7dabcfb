import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger, type LogFields } from '../../../src/runtime/log/logger.ts';
import { REDACTED, redactText } from '../../../src/runtime/log/redact.ts';

const PLAIN = 'hunter2-super-secret';
const BASE64 = Buffer.from(PLAIN).toString('base64');
const JWT_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2lnbmF0dXJlLXBhcnQ';

/** Every line a debug logger writes for `fields`, parsed, and the raw text. */
function logAtDebug(fields: LogFields, msg = 'seen'): { text: string; line: Record<string, unknown> } {
  const lines: string[] = [];
  createLogger({ level: 'debug', write: (l) => lines.push(l) }).debug(msg, fields);
  const text = lines.join('');
  return { text, line: JSON.parse(text) as Record<string, unknown> };
}

function secret(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db', namespace: 'app' },
    type: 'Opaque',
    data: { password: BASE64 },
    stringData: { url: `postgres://app:${PLAIN}@db` },
    ...extra,
  };
}

function assertClean(text: string): void {
  for (const value of [PLAIN, BASE64, JWT_TOKEN, 'abc.def-ghi']) assert.ok(!text.includes(value), text);
}

describe('log redaction', () => {
  it("replaces a Secret's data and stringData values but keeps its keys and metadata", () => {
    const { text, line } = logAtDebug({ secret: secret() });
    assertClean(text);
    assert.deepEqual(line['secret'], {
      ...secret(),
      data: { password: REDACTED },
      stringData: { url: REDACTED },
    });
  });

  it('redacts Secrets nested in objects and arrays, in SecretLists, and listed Secrets without a kind', () => {
    const listed = { ...secret(), kind: undefined, apiVersion: undefined };
    const { text } = logAtDebug({
      deep: { a: [{ b: secret() }] },
      list: { kind: 'SecretList', apiVersion: 'v1', items: [listed, listed] },
      items: [listed],
    });
    assertClean(text);
    assert.equal(text.split(REDACTED).length - 1, 8);
  });

  it("redacts kubectl's last-applied-configuration of a Secret, which repeats its data", () => {
    const annotations = { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(secret()) };
    const { text } = logAtDebug({ obj: secret({ metadata: { name: 'db', annotations } }) });
    assertClean(text);
  });

  it('keeps the data of a ConfigMap, which is not secret', () => {
    const { line } = logAtDebug({ cm: { kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } } });
    assert.deepEqual(line['cm'], { kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } });
  });

  it('redacts token and authorization fields wherever they are, whatever their case', () => {
    const { text, line } = logAtDebug({
      review: { kind: 'TokenReview', spec: { token: JWT_TOKEN, audiences: ['api'] } },
      headers: { Authorization: 'Bearer abc.def-ghi', 'content-type': 'application/json' },
      user: { bearer_token: 'abc.def-ghi', access_token: 'abc.def-ghi' },
      token: 'abc.def-ghi',
    });
    assertClean(text);
    assert.deepEqual(line['review'], { kind: 'TokenReview', spec: { token: REDACTED, audiences: ['api'] } });
    assert.deepEqual(line['headers'], { Authorization: REDACTED, 'content-type': 'application/json' });
  });

  it('redacts bearer tokens and JWTs inside strings: messages, raw headers, error messages', () => {
    const { text, line } = logAtDebug(
      {
        rawHeaders: ['Authorization', 'Bearer abc.def-ghi'],
        err: new Error(`request failed: Authorization: Bearer abc.def-ghi`),
        note: `token was ${JWT_TOKEN}`,
      },
      'calling with Bearer abc.def-ghi',
    );
    assertClean(text);
    assert.equal(line['msg'], `calling with Bearer ${REDACTED}`);
    assert.deepEqual(line['err'], {
      name: 'Error',
      message: `request failed: Authorization: Bearer ${REDACTED}`,
    });
    assert.equal(line['note'], `token was ${REDACTED}`);
  });

  it('redacts the fields a child logger carries', () => {
    const lines: string[] = [];
    createLogger({ level: 'debug', write: (l) => lines.push(l) })
      .child({ secret: secret() })
      .info('x');
    assertClean(lines.join(''));
  });

  it('leaves text without credentials alone', () => {
    assert.equal(redactText('reconciled app/db in 12 ms'), 'reconciled app/db in 12 ms');
    assert.equal(redactText('basic types are fine'), 'basic types are fine');
  });
});
