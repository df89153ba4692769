/// <reference lib="webworker" />
// The whole Service Worker of the example: the mock answers the API, the rest goes to the network.
// In your app, import from 'hrmock/browser' instead.
import { installServiceWorkerMock } from '../../src/browser/index.ts';

declare const self: ServiceWorkerGlobalScope;

installServiceWorkerMock(self, { seed: 42 });

// Take over at once, open pages included: a mock that waits for the next visit is no use.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
