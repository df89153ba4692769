// hrmock as MSW 2 request handlers: the same handlers serve a browser worker (main.ts) and
// Node's setupServer. In your app, import createMockFetch from 'hrmock/browser' instead.
import { http } from 'msw';
import { createMockFetch } from '../../src/browser/index.ts';

const mockFetch = createMockFetch({ seed: 42 });
// A Fetch Response is what an MSW resolver returns, so the mock's answer goes back as it is.
const hrmock = ({ request }: { request: Request }) => mockFetch(request);

// '*' stands for any origin; put your API's origin there to mock that one only.
export const handlers = [
  http.all('*/profiles/*', hrmock),
  http.all('*/jobs/*', hrmock),
  http.all('*/profile/grading', hrmock),
  http.all('*/job/grading', hrmock),
  http.get('*/_mock/target', hrmock),
];
