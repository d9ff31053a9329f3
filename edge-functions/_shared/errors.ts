/**
 * Turning failures into the API's error answers: always `{"message": …}`, never a stack trace or SQL.
 *
 * Database functions raise errors with SQLSTATE `BT` + HTTP status (BT400, BT403, BT404, BT409, BT429),
 * so the status comes from the code, never from parsing message text.
 */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const DOMAIN_ERROR = /^BT([1-5]\d\d)$/;

/**
 * Safety net: Postgres data exceptions caused by the input itself (a NUL character 22021, text that is
 * not a number 22P02, a number out of range 22003, a bad or out-of-range date/time 22007/22008) are the
 * client's fault, not a bug. The schemas should refuse such input first; if one slips through the answer
 * is 400 'Invalid input', never the SQL text.
 */
const INPUT_ERRORS = new Set(['22021', '22P02', '22003', '22007', '22008']);
export const INVALID_INPUT = 'Invalid input';

/** Status and message for a failure, or undefined when it is unexpected (a bug: answer 500). */
export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') {
    const match = DOMAIN_ERROR.exec(error.code);
    if (match) return new HttpError(Number(match[1]), error.message);
    if (INPUT_ERRORS.has(error.code)) return new HttpError(400, INVALID_INPUT);
  }
  return undefined;
}
