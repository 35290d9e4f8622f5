// One jest run, three projects. Unit tests sit beside the code (*.test.ts); integration
// tests (*.int.test.ts) use the real Postgres, Redis and RabbitMQ with their own database,
// vhost and key prefix; end-to-end tests boot the whole fleet (test-e2e/**/*.e2e.test.ts).
const transform = {
  '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
};
// Workspace libs resolve to their sources, so unit tests need no build.
const moduleNameMapper = { '^@svc/((?!service-)[a-z-]+)$': '<rootDir>/libs/$1/src' };
const common = { rootDir: __dirname, transform, moduleNameMapper, testEnvironment: 'node' };

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/libs/*/src/**/*.test.ts', '<rootDir>/services/*/src/**/*.test.ts', '<rootDir>/services/*/training/**/*.test.ts', '<rootDir>/scripts/**/*.test.ts'],
      testPathIgnorePatterns: ['\\.int\\.test\\.ts$', '/node_modules/', '/dist/'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/libs/*/src/**/*.int.test.ts', '<rootDir>/services/*/src/**/*.int.test.ts', '<rootDir>/k8s/**/*.int.test.ts'],
      setupFiles: ['<rootDir>/scripts/jest-integration-env.js'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test-e2e/**/*.e2e.test.ts'],
      globalSetup: '<rootDir>/test-e2e/support/global-setup.ts',
      globalTeardown: '<rootDir>/test-e2e/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test-e2e/support/timeouts.ts'],
    },
  ],
};
