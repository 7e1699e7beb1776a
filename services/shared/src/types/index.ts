/**
 * The content types as data: field kinds, behaviors and the built-in type definitions. The configuration
 * service owns the types (seeded from BUILTIN_TYPES, edited through `@types` and the `cms-types` panel); the
 * content service validates and serializes with what config answers.
 */
export * from './fields';
export * from './languages';
export * from './blocks';
export * from './behaviors';
export * from './content-type';
export * from './builtin';
export * from './text-formats';
