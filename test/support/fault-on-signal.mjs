// Preloaded into an hrmock process by a test (NODE_OPTIONS=--import=…): on SIGUSR2 it throws an
// error nothing catches, or with HRMOCK_TEST_FAULT=reject rejects a promise nobody awaits, as a
// bug anywhere in the process would.
process.on('SIGUSR2', () => {
  setImmediate(() => {
    if (process.env.HRMOCK_TEST_FAULT === 'reject')
      Promise.reject(new Error('an injected rejection'));
    else throw new Error('an injected fault');
  });
});
