import { declarations } from '@cms/shared';
import type { CollectionResults } from '../clients/collection-results';
import type { ContentCommands } from '../domain/content-commands';
import type { FileBytes } from '../domain/files';
import type { HistoryCommands } from '../domain/history';
import type { LockCommands } from '../domain/lock-commands';
import type { ContentDoc } from '../domain/model';
import type { ContentRepository } from '../domain/repository';
import type { ContentSerializer } from '../domain/serialize';
import type { PrincipalDirectory, SharingCommands } from '../domain/sharing-commands';
import type { TreeCommands } from '../domain/tree-commands';
import type { TypeRegistry } from '../domain/types';
import type { FieldSources, Vocabularies } from '../domain/vocabularies';
import type { WorkflowCommands } from '../domain/workflow-commands';
import type { WorkingCopies } from '../domain/working-copies';
import type { Components } from './expansion';

/** What the content service's endpoints are given. Their context is the content object the path names. */
export interface ContentDeps {
  commands: ContentCommands;
  repo: ContentRepository;
  types: TypeRegistry;
  serializer: ContentSerializer;
  expansion: Components;
  tree: TreeCommands;
  workflow: WorkflowCommands;
  sharing: SharingCommands;
  files: FileBytes;
  locks: LockCommands;
  history: HistoryCommands;
  workingCopies: WorkingCopies;
  /** Users and groups as identity knows them (names of lock holders). */
  directory: PrincipalDirectory;
  /** Collections' results, from search. */
  collections: CollectionResults;
  /** `@vocabularies` and the sources of fields (`@sources`, `@querysources`). */
  vocabularies: Vocabularies;
  sources: FieldSources;
}

export const { endpoint, operation } = declarations<ContentDoc, ContentDeps>();
