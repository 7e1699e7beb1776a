import { declarations, type ContentContext } from '@cms/shared';
import type { ContentTypes, TypeCounter } from '../domain/content-types';
import type { Registry } from '../domain/registry';
import type { FoldersAbove, RuleAssignments } from '../domain/rule-assignments';
import type { RuleBook } from '../domain/rules';
import type { SystemInfo } from '../domain/system';

/** What the config service's endpoints are given. */
export interface ConfigDeps {
  registry: Registry;
  /** What `@system` reports about the running process. */
  system: SystemInfo;
  /** Content rules (`@controlpanels/content-rules`) and where they are assigned (`@content-rules`). */
  rules: RuleBook;
  assignments: RuleAssignments;
  foldersAbove: FoldersAbove;
  /** The content types (the `cms-types` panel), and how many objects each has (content's `CountByType`). */
  contentTypes: ContentTypes;
  countByType: TypeCounter;
  /** The site root's own title as content holds it (null: no root yet), which `@site` reports. */
  rootTitle: (requestId: string) => Promise<string | null>;
}

export const { endpoint, operation } = declarations<ContentContext, ConfigDeps>();
