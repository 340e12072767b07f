/** The code of a failure that carries none (spec §8). */
export const DEFAULT_ERROR_CODE = "default_error_message";
/** The code of a call that never got an answer (offline, DNS, connection reset). */
export const NETWORK_ERROR_CODE = "network_error";

/** The error envelope of every failed call (openapi.yaml `Error`). */
interface ErrorEnvelope {
  error?: unknown;
  message?: unknown;
  messageErrorCode?: unknown;
  details?: unknown;
}

/**
 * A failed API call. `code` is the envelope's messageErrorCode (default_error_message when there
 * is none); `fields` maps each offending field of a 400 to its message, under its full dotted
 * path ("data.displayName") and its last segment ("displayName"), so forms can show the error
 * next to the field. `reason` is the first detail's `reason` (why a field was refused, e.g.
 * `common` for weak_password), which picks a more precise translation (api/errors.ts).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;
  readonly fields?: Record<string, string>;
  readonly reason?: string;

  constructor(status: number, body?: unknown) {
    const envelope: ErrorEnvelope = body && typeof body === "object" ? (body as ErrorEnvelope) : {};
    const serverMessage = typeof envelope.message === "string" && envelope.message ? envelope.message : undefined;
    const code =
      typeof envelope.messageErrorCode === "string" && envelope.messageErrorCode
        ? envelope.messageErrorCode
        : DEFAULT_ERROR_CODE;
    super(serverMessage ?? `Request failed with status ${status} (${code})`);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.serverMessage = serverMessage;
    const fields = fieldErrors(envelope.details);
    if (fields) this.fields = fields;
    const reason = firstReason(envelope.details);
    if (reason) this.reason = reason;
  }

  static network(cause: unknown): ApiError {
    const error = new ApiError(0, { messageErrorCode: NETWORK_ERROR_CODE });
    (error as { cause?: unknown }).cause = cause;
    return error;
  }
}

function fieldErrors(details: unknown): Record<string, string> | undefined {
  if (!Array.isArray(details)) return undefined;
  const fields: Record<string, string> = {};
  for (const detail of details) {
    if (!detail || typeof detail.field !== "string" || !detail.field || typeof detail.message !== "string") continue;
    fields[detail.field] ??= detail.message;
    const leaf = detail.field.slice(detail.field.lastIndexOf(".") + 1);
    fields[leaf] ??= detail.message;
  }
  return Object.keys(fields).length ? fields : undefined;
}

function firstReason(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  const reason: unknown = details.find((detail) => detail && typeof detail.reason === "string")?.reason;
  return typeof reason === "string" && reason ? reason : undefined;
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
