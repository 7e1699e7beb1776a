import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreKind } from '@cms/shared';
import { REST_API_LEVEL, type SystemInfo } from './domain/system';

/** `version` of a package.json, or null when it cannot be read (the package is not installed here). */
function versionAt(path: string): string | null {
  try {
    const json = JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown };
    return typeof json.version === 'string' ? json.version : null;
  } catch {
    return null;
  }
}

/** The version of a dependency of the shared package (the store and broker drivers live there). */
function driverVersion(name: string): string | null {
  try {
    const shared = require.resolve('@cms/shared');
    return versionAt(require.resolve(`${name}/package.json`, { paths: [shared] }));
  } catch {
    return null;
  }
}

/** The driver package of each server engine. */
const STORE_DRIVERS: Record<StoreKind, string | null> = {
  embedded: null,
  mongodb: 'mongodb',
  postgres: 'pg',
  sqlite: 'better-sqlite3',
};

export function systemInfo(storeKind: StoreKind, busKind: 'in-process' | 'amqp'): SystemInfo {
  const storeDriver = STORE_DRIVERS[storeKind];
  return {
    // services/config/package.json, from src or dist alike.
    cms_version: versionAt(join(__dirname, '..', 'package.json')) ?? 'unknown',
    plone_restapi_version: REST_API_LEVEL,
    node_version: process.versions.node,
    store: { kind: storeKind, driver_version: storeDriver ? driverVersion(storeDriver) : null },
    broker: { kind: busKind, driver_version: busKind === 'amqp' ? driverVersion('amqplib') : null },
    debug_mode: false,
    upgradeable: false,
  };
}
