/** The files feature of content's domain: its modules, for the API and the wiring. */
export * from './files';
export * from './image-scales';
export * from './uploads';
export * from './tus-uploads';
