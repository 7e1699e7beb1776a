/** The content feature of content's domain: its modules, for the API and the wiring. */
export * from './content-commands';
export * from './remove-tree';
export * from './content-events';
export * from './model';
export * from './repository';
export * from './serialize';
export * from './snapshot';
export * from './write-path';
export * from './field-values';
export * from './field-changes';
export * from './dates';
export * from './type-schema';
export * from './caller';
export * from './access';
export * from './stored-json';
