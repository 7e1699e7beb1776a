/** The locks feature of content's domain: its modules, for the API and the wiring. */
export * from './lock-commands';
export * from './locks';
