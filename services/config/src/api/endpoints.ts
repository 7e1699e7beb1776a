import { addons } from './addons';
import { contentTypePanel, contentTypesPanel } from './cms-types-panel';
import { contentRulesPanel, ruleElementsPanel } from './content-rules-panel';
import { contentRules } from './content-rules';
import { controlpanels } from './controlpanels';
import { registry } from './registry';
import { site } from './site';
import { system } from './system';
import { tiles } from './tiles';

/**
 * Every HTTP endpoint of the config service, `@controlpanels` in one part per kind of panel; the gateway's routing
 * table is generated from this list.
 */
export const ENDPOINTS = [
  addons,
  registry,
  controlpanels,
  contentTypesPanel,
  contentTypePanel,
  contentRulesPanel,
  ruleElementsPanel,
  contentRules,
  site,
  system,
  tiles,
];
