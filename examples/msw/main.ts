// The page's script: start MSW's worker with hrmock's handlers, then call the API as usual.
import { setupWorker } from 'msw/browser';
import { handlers } from './handlers.ts';

const status = document.querySelector('#status') as HTMLElement;

async function main() {
  const worker = setupWorker(...handlers);
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
  const target = (await (await fetch('/_mock/target')).json()).data;
  const query = new URLSearchParams({
    source_keys: JSON.stringify(target.profiles.source_keys),
    text_keywords: JSON.stringify(['python']),
    limit: '5',
  });
  const { meta } = await (await fetch(`/profiles/searching?${query}`)).json();
  status.textContent = `${meta.total} profiles mention Python, answered through MSW`;
  status.dataset.state = 'ready';
}

main().catch((error: Error) => {
  status.textContent = `Failed: ${error.message}`;
  status.dataset.state = 'failed';
});
