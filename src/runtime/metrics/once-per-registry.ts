import type { Registry } from 'prom-client';

/**
 * Wraps a function that registers metrics in a registry so it runs once per registry and then
 * returns what it made: a registry refuses a second metric of the same name, and any number of
 * controllers, queues or webhook servers may ask for the same metrics.
 */
export function oncePerRegistry<T>(register: (registry: Registry) => T): (registry: Registry) => T {
  const made = new WeakMap<Registry, T>();
  return (registry) => {
    let value = made.get(registry);
    if (value === undefined) {
      value = register(registry);
      made.set(registry, value);
    }
    return value;
  };
}
