/** The standing fault suite (`npm run test:faults`): real processes over a real RabbitMQ, one virtual host per run. */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/faults/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/(?:.+/)?dist/'],
  testTimeout: 180000,
};
