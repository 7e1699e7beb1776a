/** The translations feature of content's domain: its modules, for the API and the wiring. */
export * from './translations';
