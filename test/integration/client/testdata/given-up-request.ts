// A process whose only request gives up while its connection is dialled, run by
// transport-sockets.test.ts: it must exit once the request is done, whatever the transport keeps.
// REST_CONFIG holds the server, CA, namespace and source of the config to use.
import { transportFor } from '../../../../src/runtime/client/transport.ts';
import type { RestConfig } from '../../../../src/runtime/config/rest-config.ts';

const config = JSON.parse(process.env['REST_CONFIG'] ?? '{}') as RestConfig;
// A minute of ping timeout: the spare socket of an HTTP/1.1 dial is kept that long.
const transport = transportFor(config, { pingTimeoutMs: 60_000 });
const outcome = await transport
  .request({ method: 'GET', path: '/api', signal: AbortSignal.timeout(100) })
  .then(
    () => 'answered',
    (err: unknown) => (err instanceof Error ? err.name : String(err)),
  );
process.stdout.write(`${outcome}\n`);
