/**
 * The standing fuzz suite (`npm run test:fuzz`): fast-check with a fixed seed and a bounded number of runs.
 * FUZZ_RUNS raises the count, FUZZ_SEED changes the seed.
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/fuzz/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/(?:.+/)?dist/'],
  testTimeout: 600000,
};
