import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../src/api/start-mock.ts';
import { readOperationRequest, requestKey } from '../../src/recording/request-key.ts';
import { startHrmockProcess } from '../support/hrmock-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const SOURCE = '12feac8fdc9c3b5f6c463c8f3a705d17d2581331';
const SEARCH = `/profiles/searching?source_keys=${encodeURIComponent(JSON.stringify([SOURCE]))}&limit=2`;

/** A recording of `GET path` as `hrmock proxy --record` writes one (docs/proxy.md), in `dir`. */
async function recordInto(
  dir: string,
  name: string,
  path: string,
  response: { status: number; contentType: string | null; body?: unknown; bodyText?: string },
): Promise<string> {
  const reached = readOperationRequest('GET', path, undefined, undefined);
  const key = reached === undefined ? undefined : requestKey(reached);
  if (reached === undefined || key === undefined) throw new Error(`no key for ${path}`);
  const file = join(dir, name);
  const request = { method: 'GET', path: reached.operation, params: reached.params };
  await writeFile(file, JSON.stringify({ key, request, response }, null, 2));
  return file;
}

/** Headers of CORS (and `Vary`, which says what they depend on), by name. */
function corsOf(response: Response): Record<string, string> {
  const cors: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (/^access-control-|^vary$/.test(name)) cors[name] = value;
  });
  return cors;
}

function mockFor(replay?: string): Promise<RunningMock> {
  return startMock({ profiles: 40, jobs: 20, ...(replay === undefined ? {} : { replay }) });
}

describe('hrmock serve --replay DIR refuses links', () => {
  it('stops at start-up with exit 2 naming a link to a recording, never following it', async () => {
    const elsewhere = await tempDir('elsewhere');
    const dir = await tempDir('linked');
    const outside = await recordInto(elsewhere, 'a.json', SEARCH, {
      status: 200,
      contentType: 'application/json',
      body: { code: 200, message: 'from elsewhere' },
    });
    await symlink(outside, join(dir, 'link.json'));
    const started = startHrmockProcess(['serve', '--port', '0', '--quiet', '--replay', dir]);
    await expect(started).rejects.toThrow(
      /exited with 2:[\s\S]*--replay .*: .*link\.json is a symbolic link/,
    );
  }, 90_000);

  it('refuses a link to a folder, whatever its name', async () => {
    const dir = await tempDir('linked-folder');
    await mkdir(join(dir, 'real'));
    await symlink(join(dir, 'real'), join(dir, 'more'));
    await expect(mockFor(dir)).rejects.toThrow(/more is a symbolic link/);
  });

  it('refuses a folder named like a recording', async () => {
    const dir = await tempDir('json-folder');
    await mkdir(join(dir, 'odd.json'));
    await expect(mockFor(dir)).rejects.toThrow(/odd\.json is not a regular file/);
  });
});

describe('hrmock serve --replay DIR answers', () => {
  it('serves a recorded answer that is not JSON with nosniff and a policy that runs nothing', async () => {
    const dir = await tempDir('html');
    await recordInto(dir, 'page.json', SEARCH, {
      status: 200,
      contentType: 'text/html',
      bodyText: '<script>alert(document.cookie)</script>',
    });
    const replay = await mockFor(dir);
    try {
      const answer = await fetch(`${replay.url}${SEARCH}`);
      expect(await answer.text()).toBe('<script>alert(document.cookie)</script>');
      expect(answer.headers.get('content-type')).toBe('text/html');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'");
    } finally {
      await replay.close();
    }
  });

  it('gives a replayed answer the CORS headers the live mock gives the same request and Origin', async () => {
    const live = await mockFor();
    const dir = await tempDir('cors');
    const liveAnswer = await fetch(`${live.url}${SEARCH}`);
    await recordInto(dir, 'search.json', SEARCH, {
      status: 200,
      contentType: 'application/json',
      body: await liveAnswer.json(),
    });
    const replay = await mockFor(dir);
    try {
      for (const origin of [undefined, 'http://app.example'])
        for (const method of ['GET', 'POST']) {
          const headers: Record<string, string> = origin === undefined ? {} : { origin };
          const [path, query] = SEARCH.split('?') as [string, string];
          const init =
            method === 'GET'
              ? { headers }
              : {
                  method,
                  headers: { ...headers, 'content-type': 'application/json' },
                  body: JSON.stringify(Object.fromEntries(new URLSearchParams(query))),
                };
          const url = (base: string) => (method === 'GET' ? `${base}${SEARCH}` : `${base}${path}`);
          const fromLive = await fetch(url(live.url), init);
          const replayed = await fetch(url(replay.url), init);
          expect(await replayed.text()).toBe(await fromLive.text());
          expect(corsOf(replayed)).toEqual(corsOf(fromLive));
          expect(corsOf(replayed)['access-control-allow-origin']).toBe('*');
        }
    } finally {
      await Promise.all([live.close(), replay.close()]);
    }
  });
});
