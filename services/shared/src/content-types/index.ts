export * from './fields';
export * from './languages';
export * from './behaviors';
export * from './types';
export * from './schemas';
