// hrmock as MSW 2 request handlers: the same handlers serve a browser worker (main.ts) and
// Node's setupServer. In your app, import from 'hrmock/browser' instead.
import { http } from 'msw';
import { createMockFetch, mswHandlers } from '../../src/browser/index.ts';

// Steer it from a test as startMock's: mockFetch.use({...}), mockFetch.requests(), mockFetch.reset().
// Your API's base URL goes in baseUrl ('https://api.example.com/v1', or a path: '/v1'); without
// it, the mock answers at the root of any origin, as here.
export const mockFetch = createMockFetch({ seed: 42 });
// Every path the mock answers, each returning its Response as it is; a reset or hang fault is
// MSW's network error.
export const handlers = mswHandlers(http, mockFetch);
