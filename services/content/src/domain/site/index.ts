/** The site feature of content's domain: its modules, for the API and the wiring. */
export * from './site-settings';
export * from './site-title';
export * from './data-migrations';
