/**
 * The content types as the content service uses them: the definitions are data owned by the configuration
 * service (services/shared/src/types, seeded there); here the registry built from config's current definitions
 * and the write validation derived from them. Readers get types from a TypeRegistry, never from module constants.
 */
export {
  type FieldKind,
  type Choice,
  type FieldDef,
  type FieldsetId,
  FIELDSETS,
  KIND_INFO,
  FIELD_FACTORIES,
  isFileKind,
  LANGUAGES,
  languageName,
  MAX_BLOCKS,
  BLOCKS_FIELDS,
  blocksInvariants,
  blocksText,
  siteRootBlocks,
  type BehaviorDef,
  METADATA_FIELDS,
  BEHAVIORS,
  type TypeField,
  type FieldsetDef,
  type ContentTypeDef,
  type ContentType,
  generatedSchemaName,
  GENERATED_FIELDSETS,
  buildType,
  hasBehavior,
  SITE_ROOT_TYPE,
  INITIAL_STATE,
  BUILTIN_TYPES,
} from '@cms/shared';
export * from './schemas';
export * from './registry';
