import { parseArgs } from 'node:util';
import { filldrain, requeue, type WorkloadOptions } from './workload.ts';

// One scenario run in a fresh process, as the Go peer runs, printing one JSON line.
const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'requeue' },
    workers: { type: 'string', default: '4' },
    keys: { type: 'string', default: '10000' },
    items: { type: 'string', default: '1000000' },
    name: { type: 'string', default: '' },
  },
});
const options: WorkloadOptions = {
  workers: Number(values.workers),
  keys: Number(values.keys),
  items: Number(values.items),
  name: values.name,
};
const result = values.scenario === 'filldrain' ? await filldrain(options) : await requeue(options);
console.log(JSON.stringify(result));
