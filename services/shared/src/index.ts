export * from './store/port';
export * from './events/port';
export * from './errors/app-error';
export * from './logging/logger';
