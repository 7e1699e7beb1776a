import { addons } from './addons';
import { contentRules } from './content-rules';
import { controlpanels } from './controlpanels';
import { registry } from './registry';
import { site } from './site';
import { system } from './system';
import { tiles } from './tiles';

/** Every HTTP endpoint of the config service; the gateway's routing table is generated from this list. */
export const ENDPOINTS = [addons, registry, controlpanels, contentRules, site, system, tiles];
