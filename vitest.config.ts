import { defineConfig } from 'vitest/config';

export const config = defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'mocks/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

export default config;
