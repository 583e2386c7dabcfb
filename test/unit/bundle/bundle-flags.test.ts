import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBundleChannels } from '../../../src/bundle/bundle-channels.ts';
import { parseBundleVersion } from '../../../src/bundle/bundle-version.ts';
import { UsageError } from '../../../src/errors.ts';

describe('parseBundleVersion', () => {
  it('takes strict semantic versions, pre-releases included', () => {
    for (const version of ['0.1.0', '1.22.333', '1.0.0-rc.1', '1.0.0-alpha.beta.5114f85'])
      assert.equal(parseBundleVersion(version), version);
  });

  it("refuses a version the CSV's name cannot end with: build metadata, capitals", () => {
    for (const version of ['1.0.0+exp.sha.5114f85', '1.0.0-RC1', '1.0.0-rc-'])
      assert.throws(
        () => parseBundleVersion(version),
        (err: unknown) =>
          err instanceof UsageError &&
          err.message.includes(`--version "${version}" cannot end the CSV's name`) &&
          err.message.includes('lower-case'),
        version,
      );
  });

  it('refuses what OLM would not order, as a usage error naming the fix', () => {
    assert.throws(
      () => parseBundleVersion('v1.0.0'),
      (err: unknown) => err instanceof UsageError && /write 1\.0\.0/.test(err.message),
    );
    for (const version of ['1.0', '01.0.0', '1.0.0-01', '1.0.0+', 'latest', ''])
      assert.throws(() => parseBundleVersion(version), UsageError, version);
  });
});

describe('parseBundleChannels', () => {
  it('splits the list and checks the default channel is one of it', () => {
    assert.deepEqual(parseBundleChannels('alpha, stable', 'stable'), {
      channels: ['alpha', 'stable'],
      defaultChannel: 'stable',
    });
    assert.deepEqual(parseBundleChannels('alpha'), { channels: ['alpha'] });
    assert.throws(() => parseBundleChannels('alpha', 'beta'), UsageError);
    assert.throws(() => parseBundleChannels('alpha,,beta'), UsageError);
  });
});
