import type { JsonValue } from './records';

/** What the registry rules need of persistence; implemented in store/ over the store port. */
export interface RegistryValueStore {
  /** The stored values of these records; a record that was never set is absent from the map. */
  read(names: readonly string[]): Promise<Map<string, unknown>>;
  /** Stores these values (already validated). */
  write(values: ReadonlyMap<string, JsonValue>): Promise<void>;
}
