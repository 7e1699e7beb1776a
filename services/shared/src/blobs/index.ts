export * from './port';
export * from './embedded';
export * from './gridfs';
export * from './open';
