/**
 * The requests the official JavaScript SDK (`Riminder/javascript-hrflow-api`, `src/utils.ts`,
 * `src/http.ts`, `src/resources/{profile,job}/{searching,scoring}.ts`) sends, rebuilt from
 * reading it. It writes the query string itself without encoding anything: a list becomes
 * `name=["a","b"]` (each item put between quotes as it is), anything else `name=${value}`, so an
 * object arrives as `[object Object]`; `fetch` then percent-encodes what a URL cannot hold.
 * It has no grading methods, and its `job.scoring` is its profile scoring class.
 */
export type JsSdkOptions = { apiUrl: string; apiSecret: string };

type Options = Record<string, unknown>;

/** `generateURLParams` of `src/utils.ts`, in this file's words. */
function urlParams(options: Options): string {
  return Object.keys(options)
    .map((key) => {
      const value = options[key];
      if (Array.isArray(value)) return `${key}=[${value.map((item) => `"${item}"`).join(',')}]`;
      return `${key}=${value}`;
    })
    .join('&');
}

export class JsHrflow {
  readonly #options: JsSdkOptions;

  constructor(options: JsSdkOptions) {
    this.#options = options;
  }

  /** The constructor's headers: `api_user` is never set there, so the email is `undefined`. */
  get #headers(): Record<string, string> {
    return { 'X-API-KEY': this.#options.apiSecret, 'X-USER-EMAIL': String(undefined) };
  }

  #get(path: string, params: Options): Request {
    return new Request(`${this.#options.apiUrl}${path}?${urlParams(params)}`, {
      headers: this.#headers,
    });
  }

  #profileScoring = (
    source_keys: string[],
    board_key: string,
    job_key: string,
    options: Options,
  ): Request => {
    options.use_agent = 1;
    return this.#get('/profiles/scoring', { ...options, source_keys, board_key, job_key });
  };

  readonly profile = {
    searching: {
      list: (source_keys: string[], options: Options): Request =>
        this.#get('/profiles/searching', { ...options, source_keys }),
    },
    scoring: { list: this.#profileScoring },
  };

  readonly job = {
    searching: {
      get: (board_keys: string[], options: Options): Request =>
        this.#get('/jobs/searching', { ...options, board_keys }),
    },
    scoring: { list: this.#profileScoring },
  };
}

/**
 * `httpRequest`: a 200 or 201 gives `json.data`, read as `Data`, the data the caller asked for;
 * any other status throws an APIError.
 */
export async function readAsJsSdk<Data = unknown>(response: Response): Promise<Data> {
  const json = await response.json();
  if (response.status === 200 || response.status === 201) return json.data;
  throw Object.assign(new Error('An error occured'), { response: json });
}
