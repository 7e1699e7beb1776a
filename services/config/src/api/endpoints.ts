import { registry } from './registry';

/** Every HTTP endpoint of the config service; the gateway's routing table is generated from this list. */
export const ENDPOINTS = [registry];
