import { EmulatorError, type ErrorCategory, type ErrorDetails } from '../errors.js';

const CATEGORIES: readonly ErrorCategory[] = ['user_input', 'conflict', 'not_found', 'delivery', 'internal'];

/** The admin API refused a request: the server's code, category, message and details, as sent. */
export class AdminApiError extends EmulatorError {
  constructor(
    code: string,
    message: string,
    status: number,
    category: ErrorCategory,
    details: ErrorDetails,
    /** `METHOD /path` of the refused request. */
    readonly request: string,
  ) {
    super(code, message, status, category, details);
  }

  /** Builds the error from an error answer (any body; a non-problem body still gives a clear message). */
  static fromResponse(request: string, status: number, body: unknown): AdminApiError {
    const problem = (body as { error?: Record<string, unknown> } | null)?.error;
    if (problem && typeof problem.code === 'string' && typeof problem.message === 'string') {
      const category = CATEGORIES.includes(problem.category as ErrorCategory)
        ? (problem.category as ErrorCategory)
        : status >= 500
          ? 'internal'
          : 'user_input';
      return new AdminApiError(
        problem.code,
        problem.message,
        status,
        category,
        (problem.details as ErrorDetails) ?? {},
        request,
      );
    }
    const text = typeof body === 'string' ? body.slice(0, 200) : JSON.stringify(body)?.slice(0, 200);
    return new AdminApiError(
      'unexpected_answer',
      `${request} answered HTTP ${status} without an admin API error body (${text || 'empty'}); is the URL an emulator?`,
      status,
      status >= 500 ? 'internal' : 'user_input',
      {},
      request,
    );
  }
}

/** The emulator could not be reached at all (nothing listening, DNS, TLS, timeout). */
export class AdminUnreachableError extends EmulatorError {
  constructor(baseUrl: string, request: string, reason: string) {
    super(
      'admin_unreachable',
      `${request}: cannot reach the emulator at ${baseUrl} (${reason}). Is it running? Check the URL and port (health: ${baseUrl}/__admin/health).`,
      503,
      'internal',
      { url: baseUrl },
    );
  }
}
