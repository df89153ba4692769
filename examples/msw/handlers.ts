// hrmock as MSW 2 request handlers: the same handlers serve a browser worker (main.ts) and
// Node's setupServer. In your app, import from 'hrmock/browser' instead.
import { http } from 'msw';
import { createMockFetch, mswResolver } from '../../src/browser/index.ts';

// Steer it from a test as startMock's: mockFetch.use({...}), mockFetch.requests(), mockFetch.reset().
export const mockFetch = createMockFetch({ seed: 42 });
// A Fetch Response is what an MSW resolver returns, so the mock's answer goes back as it is; a
// reset or hang fault becomes MSW's network error.
const hrmock = mswResolver(mockFetch);

// '*' stands for any origin; put your API's origin there to mock that one only.
export const handlers = [
  http.all('*/profiles/*', hrmock),
  http.all('*/jobs/*', hrmock),
  http.all('*/profile/grading', hrmock),
  http.all('*/job/grading', hrmock),
  http.get('*/_mock/target', hrmock),
];
