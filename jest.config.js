/** Tests run the TypeScript sources through swc (fast); `npm run typecheck` does the type checking. */
module.exports = {
  testEnvironment: 'node',
  // A worker per core: jest's default (cores - 1) is one worker on a 2-core machine, leaving a core to the type check
  // of `npm test` only while it runs (test/typecheck-and-jest.js).
  maxWorkers: '100%',
  roots: ['<rootDir>/test'],
  setupFiles: ['<rootDir>/test/compile-cache.js'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: {
    '^triton-ops$': '<rootDir>/lib/index.ts',
    '^triton-ops/(aws|bridge)$': '<rootDir>/lib/entries/$1.ts',
    '^triton-ops/(fleet|triton)$': '<rootDir>/lib/$1/index.ts',
    '^triton-ops/testing$': '<rootDir>/lib/testing/index.ts',
    // No creation stacks for cdktf's tokens in tests (test/no-creation-stacks.js): the requests of cdktf's and
    // constructs' own modules for their stack-trace helper.
    '^\\./(tokens/private/|private/)?stack-trace$': '<rootDir>/test/no-creation-stacks.js',
  },
  // Every run's temporary files in one folder, removed at the end (test/global-setup.js).
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  snapshotFormat: { escapeString: false, printBasicPrototype: false },
};
