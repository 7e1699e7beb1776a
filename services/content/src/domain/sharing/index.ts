/** The sharing feature of content's domain: its modules, for the API and the wiring. */
export * from './sharing-commands';
