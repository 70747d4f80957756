/** An error answered in Discord's JSON error format: `{ message, code }` (+ `errors` for 400s). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: number;
  readonly errors: unknown;

  constructor(status: number, code: number, message: string, errors?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = errors;
  }

  toJSON(): Record<string, unknown> {
    const body = { message: this.message, code: this.code };
    return this.errors === undefined ? body : { ...body, errors: this.errors };
  }
}

export const notFound = (): ApiError => new ApiError(404, 0, '404: Not Found');
export const unauthorized = (): ApiError => new ApiError(401, 0, '401: Unauthorized');
export const invalidBody = (detail: string): ApiError =>
  new ApiError(400, 50035, 'Invalid Form Body', {
    _errors: [{ code: 'BASE_TYPE_INVALID', message: detail }],
  });
