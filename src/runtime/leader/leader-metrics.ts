import { Gauge } from '../metrics/prom-client.ts';
import { metricsRegistry } from '../metrics/registry.ts';

/** 1 while this process leads the election `name`, else 0: client-go's leader election metric. */
export const leaderElectionMasterStatus: Gauge<'name'> = new Gauge({
  name: 'leader_election_master_status',
  help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.",
  labelNames: ['name'],
  registers: [metricsRegistry],
});
