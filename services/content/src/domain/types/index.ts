/**
 * The content types, defined in the content service, which validates every write against them and serves
 * them (`@types`). Readers get them from a TypeRegistry, never from module constants.
 */
export * from './fields';
export * from './languages';
export * from './behaviors';
export * from './content-type';
export * from './builtin';
export * from './schemas';
export * from './registry';
