/** The relations feature of content's domain: its modules, for the API and the wiring. */
export * from './references';
export * from './references-breaches';
export * from './references-relations';
export * from './links';
