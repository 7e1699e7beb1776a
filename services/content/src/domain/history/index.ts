/** The history feature of content's domain: its modules, for the API and the wiring. */
export * from './history';
export * from './versions';
export * from './transactions';
