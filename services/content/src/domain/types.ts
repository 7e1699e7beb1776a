/** The content types are defined once, in the shared package (the config service serves them as `@types`). */
export {
  ADDABLE_TYPES,
  allowedTypesIn,
  CONTENT_TYPES,
  contentType,
  findContentType,
  INITIAL_STATE,
  SITE_ROOT_TYPE,
  type ContentType,
  type TypeField,
} from '@cms/shared';
