/**
 * The adapters behind the store and bus ports, and the runners that open them: loaded only by the processes
 * that run a service (`@cms/shared/adapters`), never by the gateway, which needs neither a store nor a bus.
 */
export * from './store/open';
export * from './store/embedded/embedded-store';
export * from './store/mongo/mongo-store';
export * from './store/postgres';
export * from './store/sqlite';
export * from './bus/in-process-bus';
export * from './bus/amqp/amqp-bus';
export * from '../runtime/infrastructure';
export * from '../runtime/standalone';
export * from './mail/smtp-sender';
export * from '../runtime/metrics-port';
