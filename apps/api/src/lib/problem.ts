import type { ErrorCode, FieldError } from '@palisade/contracts';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const titleFor = (status: number): string => TITLES[status] ?? 'Error';

/** A problem+json answer with a stable code. Thrown by services; rendered by the error handler. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly errors: FieldError[] | undefined;

  constructor(status: number, code: ErrorCode, detail?: string, errors?: FieldError[]) {
    super(detail ?? code);
    this.name = 'HttpProblem';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.errors = errors;
  }
}

export const notFound = (code: ErrorCode, detail: string) => new HttpProblem(404, code, detail);
export const conflict = (code: ErrorCode, detail: string) => new HttpProblem(409, code, detail);
export const forbidden = (detail = 'You do not have permission to do this.') => new HttpProblem(403, 'auth.forbidden', detail);

/** A 400 for one field, in the same shape as schema validation failures. */
export function fieldProblem(path: string, code: string, message: string): HttpProblem {
  return new HttpProblem(400, 'validation.failed', 'The request has invalid fields.', [{ path, code, message }]);
}
