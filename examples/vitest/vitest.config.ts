// hrmock in a vitest project: one mock server for the whole run (global setup), its URL and
// target handed to the tests with provide/inject.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: './global-setup.ts',
    include: ['*.test.ts'],
  },
});
