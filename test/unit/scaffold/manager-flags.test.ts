import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { linkCheckoutPackages } from '../../support/checkout-packages.ts';
import { emptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

/** What the tests read of a generated project's src/manager-flags.ts. */
interface ManagerFlagsModule {
  parseManagerFlags(args: readonly string[]): Record<string, unknown> | undefined;
  managerFlagsUsage(): string;
}

/** What the tests read of a generated project's src/console-encoder.ts. */
interface ConsoleEncoderModule {
  consoleLine(jsonLine: string): string;
}

/**
 * The flags of a generated project's src/main.ts, as a Kubebuilder user types them: the project is
 * rendered by init, its modules imported and its main.ts run (with this checkout's packages).
 */
describe("a generated project's manager flags", () => {
  let dir = '';
  let flags: ManagerFlagsModule;
  let encoder: ConsoleEncoderModule;

  const parse = (args: readonly string[]): Record<string, unknown> => {
    const parsed = flags.parseManagerFlags(args);
    assert.ok(parsed, `${args.join(' ')} is not --help`);
    return parsed;
  };

  const main = (args: readonly string[]) =>
    execa(process.execPath, ['src/main.ts', ...args], { cwd: dir, reject: false });

  before(async () => {
    dir = await emptyProjectFolder();
    await initProject(dir);
    await linkCheckoutPackages(dir);
    flags = (await import(pathToFileURL(join(dir, 'src/manager-flags.ts')).href)) as ManagerFlagsModule;
    encoder = (await import(pathToFileURL(join(dir, 'src/console-encoder.ts')).href)) as ConsoleEncoderModule;
  });
  after(() => rm(dirname(dir), { recursive: true, force: true }));

  it('defaults to what a Kubebuilder manager does, HTTPS metrics and JSON logs at info', () => {
    assert.deepEqual(parse([]), {
      kubeconfig: '',
      metricsBindAddress: '',
      metricsSecure: true,
      metricsCertPath: '',
      metricsCertName: 'tls.crt',
      metricsCertKey: 'tls.key',
      webhookPort: 9443,
      webhookCertPath: '',
      webhookCertName: 'tls.crt',
      webhookCertKey: 'tls.key',
      webhookInstallLocal: false,
      enableHttp2: false,
      healthProbeBindAddress: ':8081',
      leaderElect: false,
      logLevel: 'info',
      logEncoder: 'json',
    });
  });

  it('takes a boolean as --x, --x=true|false, --no-x and Go-style -x', () => {
    assert.equal(parse(['--metrics-secure=false'])['metricsSecure'], false);
    assert.equal(parse(['--no-metrics-secure'])['metricsSecure'], false);
    assert.equal(parse(['--metrics-secure=0'])['metricsSecure'], false);
    assert.equal(parse(['--no-metrics-secure', '--metrics-secure'])['metricsSecure'], true);
    assert.equal(parse(['--leader-elect'])['leaderElect'], true);
    assert.equal(parse(['--leader-elect=true'])['leaderElect'], true);
    assert.equal(parse(['-leader-elect'])['leaderElect'], true);
    assert.throws(
      () => parse(['--leader-elect=yes']),
      /^FlagError: flag --leader-elect is true or false, not "yes"$/,
    );
  });

  it('takes a value as --x value and --x=value', () => {
    const parsed = parse([
      '--kubeconfig',
      '/home/me/.kube/dev',
      '--metrics-bind-address=:8080',
      '--webhook-port=10250',
      '--webhook-cert-path=/certs',
      '--webhook-cert-name=cert.pem',
      '--webhook-cert-key',
      'key.pem',
      '--health-probe-bind-address=0',
    ]);
    assert.equal(parsed['kubeconfig'], '/home/me/.kube/dev');
    assert.equal(parsed['metricsBindAddress'], ':8080');
    assert.equal(parsed['webhookPort'], 10250);
    assert.deepEqual(
      [parsed['webhookCertPath'], parsed['webhookCertName'], parsed['webhookCertKey']],
      ['/certs', 'cert.pem', 'key.pem'],
    );
    assert.equal(parsed['healthProbeBindAddress'], '0');
    assert.throws(() => parse(['--webhook-port=http']), /is a port \(0-65535\), not "http"/);
    assert.throws(() => parse(['--kubeconfig']), /^FlagError: flag --kubeconfig needs a value$/);
  });

  it('--zap-devel logs console lines at debug, unless --zap-log-level or --zap-encoder say otherwise', () => {
    const devel = parse(['--zap-devel']);
    assert.deepEqual([devel['logLevel'], devel['logEncoder']], ['debug', 'console']);
    const overridden = parse(['--zap-devel', '--zap-log-level=warn', '--zap-encoder=json']);
    assert.deepEqual([overridden['logLevel'], overridden['logEncoder']], ['warn', 'json']);
    assert.throws(() => parse(['--zap-encoder=text']), /is one of json, console, not "text"/);
    assert.throws(() => parse(['--zap-log-level=trace']), /is one of error, warn, info, debug, not "trace"/);
  });

  it('takes the metrics certificate file names, tls.crt and tls.key by default', () => {
    assert.deepEqual([parse([])['metricsCertName'], parse([])['metricsCertKey']], ['tls.crt', 'tls.key']);
    const named = parse(['--metrics-cert-name=cert.pem', '--metrics-cert-key=key.pem']);
    assert.deepEqual([named['metricsCertName'], named['metricsCertKey']], ['cert.pem', 'key.pem']);
  });

  it('--help prints every flag with its default and exits 0', async () => {
    const result = await main(['--help']);
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(`${result.stdout}\n`, flags.managerFlagsUsage());
    for (const flag of [
      '--kubeconfig <value>',
      '--metrics-secure',
      '--zap-devel',
      '--webhook-port <value>',
    ]) {
      assert.ok(result.stdout.includes(`\n  ${flag}\n`), `--help lists ${flag}`);
    }
    assert.match(result.stdout, /--health-probe-bind-address <value>\n.*\(default: :8081\)/);
    assert.equal((await main(['-h'])).stdout, result.stdout);
  });

  it('an unknown flag or argument is one line on stderr and exit 2', async () => {
    for (const [args, message] of [
      [['--metrics-bind-adress=:8080'], 'unknown flag --metrics-bind-adress'],
      [['--no-kubeconfig'], 'unknown flag --no-kubeconfig: --kubeconfig takes a value'],
      [['serve'], 'unexpected argument "serve"'],
    ] as const) {
      const result = await main(args);
      assert.equal(result.exitCode, 2, args.join(' '));
      assert.equal(result.stderr, `${message} (--help lists the flags)`);
      assert.equal(result.stdout, '');
    }
  });

  it('a --kubeconfig file that cannot be read is one line on stderr and exit 2', async () => {
    const result = await main(['--kubeconfig=/nonexistent/kubeconfig']);
    assert.equal(result.exitCode, 2, result.stderr);
    assert.match(result.stderr, /^--kubeconfig \/nonexistent\/kubeconfig: .*no such file/i);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  });

  it('the console encoder writes time, level, message and the other fields', () => {
    const line = JSON.stringify({
      level: 'info',
      ts: '2026-01-02T03:04:05.000Z',
      msg: 'created Deployment',
      controller: 'webapp',
      name: 'web',
    });
    assert.equal(
      encoder.consoleLine(line),
      '2026-01-02T03:04:05.000Z\tINFO\tcreated Deployment\t{"controller":"webapp","name":"web"}\n',
    );
    assert.equal(encoder.consoleLine(JSON.stringify({ level: 'warn', ts: 't', msg: 'm' })), 't\tWARN\tm\n');
  });
});
