/** The tree feature of content's domain: its modules, for the API and the wiring. */
export * from './tree-commands';
export * from './subtree';
export * from './folder-order';
export * from './naming';
export * from './aliases';
