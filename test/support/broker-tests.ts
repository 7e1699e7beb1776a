/** `describe` for tests that need RabbitMQ: skipped only outside CI when no broker answers (scripts/jest-global-setup.js). */
export const describeWithBroker = process.env.CMS_BROKER_TESTS === 'skip' ? describe.skip : describe;
