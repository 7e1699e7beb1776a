/** One jest run for the whole workspace: unit tests beside each package, e2e tests under test/. */
const swc = [
  '@swc/jest',
  { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
];

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  testMatch: ['<rootDir>/{gateway,services/*,test}/**/*.test.ts'],
  // The fault and fuzz suites have their own commands (jest.faults.config.js, jest.fuzz.config.js).
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/(?:.+/)?dist/',
    '<rootDir>/test/faults/',
    '<rootDir>/test/fuzz/',
  ],
  // Tests import workspace packages from source, so they never run stale builds.
  moduleNameMapper: {
    '^@cms/gateway$': '<rootDir>/gateway/src',
    '^@cms/shared/adapters$': '<rootDir>/services/shared/src/adapters/index',
    '^@cms/(shared|content|identity|search|discussion|config|embedded)$': '<rootDir>/services/$1/src',
  },
  testTimeout: 30000,
  reporters: ['default', '<rootDir>/scripts/jest-summary.js'],
  globalSetup: '<rootDir>/scripts/jest-global-setup.js',
};
