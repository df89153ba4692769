import type { ParamError } from '../hr/result.ts';

/** The one error type of the HTTP layer: mapped to the error envelope by `app.onError`. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ParamError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    options: { errors?: ParamError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  /** A 400 for parameters the HR operations rejected, its message summing them up. */
  static invalid(errors: ParamError[]): ApiError {
    const [first] = errors;
    const notFound = errors.find((e) => e.message.startsWith('Unable to find object'));
    const message = notFound
      ? // The summary is the message's first sentence: what was not found, without the hints after it.
        `Invalid parameters. ${notFound.message.split('. ')[0]}`
      : errors.length === 1 && first !== undefined
        ? `Invalid parameters. ${first.message}`
        : `Invalid parameters: ${errors.map((e) => e.param).join(', ')}. See errors for each.`;
    return new ApiError(400, message, { errors });
  }
}

export type ErrorBody = { code: number; message: string; errors?: ParamError[] };

export function errorBody(error: ApiError): ErrorBody {
  return error.errors === undefined
    ? { code: error.status, message: error.message }
    : { code: error.status, message: error.message, errors: error.errors };
}

/** What an unexpected failure answers: the details go to the log, never into the answer. */
export const SERVER_ERROR: ErrorBody = {
  code: 500,
  message: 'Internal server error. Retry later; if it persists, report the request.',
};

/** Writes an unexpected failure's cause to stderr: the one place its details go. */
export function reportInternalError(method: string, path: string, error: unknown): void {
  process.stderr.write(
    `hrmock: internal error on ${method} ${path}: ${(error as Error)?.stack ?? error}\n`,
  );
}
