// The page calls the API as it would call the real one; no server answers it: the Service
// Worker in hrmock-sw.js does, with the same data `hrmock serve --seed 42` has.
const status = document.querySelector('#status');
const results = document.querySelector('#results');
const RELOADED = 'hrmock-example-reloaded';

/** Resolves once the worker answers this page's requests; until then they would go to the server. */
async function untilControlled() {
  const { serviceWorker } = navigator;
  if (serviceWorker === undefined) throw new Error('this browser has no Service Workers');
  await serviceWorker.register('/hrmock-sw.js', { scope: '/' });
  await serviceWorker.ready;
  if (serviceWorker.controller === null) {
    // A new worker claims the page as it activates; this waits for that, briefly.
    await new Promise((resolve) => {
      serviceWorker.addEventListener('controllerchange', resolve, { once: true });
      setTimeout(resolve, 2000);
    });
  }
  if (serviceWorker.controller !== null) {
    sessionStorage.removeItem(RELOADED);
    return;
  }
  // A hard reload bypasses the worker for this page load only: load once more, not forever.
  if (sessionStorage.getItem(RELOADED) !== null)
    throw new Error('the Service Worker does not control this page, even after a reload');
  sessionStorage.setItem(RELOADED, '1');
  location.reload();
  await new Promise(() => {});
}

async function getJson(path) {
  const response = await fetch(path);
  const body = await response.json().catch(() => null);
  if (!response.ok || body === null)
    throw new Error(
      `GET ${path}: ${response.status}, ${body?.message ?? 'not an answer of the mock'}`,
    );
  return body;
}

function itemOf(profile) {
  const item = document.createElement('li');
  const name = document.createElement('strong');
  name.textContent = profile.info.full_name;
  const details = document.createElement('span');
  details.className = 'details';
  const title = profile.experiences?.[0]?.title ?? 'no experience listed';
  const city = profile.info.location?.fields?.city ?? profile.info.location?.text ?? 'somewhere';
  details.textContent = `, ${title}, ${city}`;
  item.append(name, details);
  return item;
}

async function main() {
  await untilControlled();
  status.textContent = 'Searching…';
  // The mock lists keys that exist in it, as a real deployment's team would hand them out.
  const target = (await getJson('/_mock/target')).data;
  const query = new URLSearchParams({
    source_keys: JSON.stringify(target.profiles.source_keys),
    text_keywords: JSON.stringify(['python']),
    limit: '5',
  });
  const { data, meta } = await getJson(`/profiles/searching?${query}`);
  results.replaceChildren(...data.profiles.map(itemOf));
  status.textContent = `${meta.total} profiles mention Python; the first ${meta.count}, answered by the Service Worker:`;
}

main().catch((error) => {
  status.textContent = `Failed: ${error.message}`;
  status.className = 'failed';
});
