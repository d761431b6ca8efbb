import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The one API client: typed by the service's OpenAPI document (schema.d.ts, generated), so the app can call
 * only documented routes with documented bodies. The browser sends the HttpOnly session cookie
 * (credentials: same-origin); no token or API key is ever kept by the app.
 */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin', headers: { accept: 'application/json' } });

/** The service's error envelope ({"error":{code,message,details}}), thrown by `data()`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown,
  ) {
    super(message);
  }

  /** The field-level messages of a VALIDATION_FAILED answer, by field name. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    if (Array.isArray(this.details)) {
      for (const item of this.details as { field?: string; property?: string; message?: string; messages?: string[] }[]) {
        const field = item.field ?? item.property;
        const message = item.message ?? item.messages?.[0];
        if (field && message) out[field] = message;
      }
    }
    return out;
  }
}

interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** Unwraps `{data}` (and `meta` for lists) or throws ApiError; a 401 tells the app the session ended. */
export async function data<T>(call: Promise<Answer>): Promise<T> {
  return (await page<T>(call)).data;
}

export interface Meta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

export async function page<T>(call: Promise<Answer>): Promise<{ data: T; meta: Meta | null }> {
  let answer: Answer;
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service could not be reached. Check your connection and try again.', null);
  }
  const { response } = answer;
  if (!response.ok) {
    const envelope = (answer.error ?? {}) as { error?: { code?: string; message?: string; details?: unknown } };
    const error = new ApiError(
      response.status,
      envelope.error?.code ?? `HTTP_${response.status}`,
      envelope.error?.message ?? `The service answered ${response.status}.`,
      envelope.error?.details,
    );
    if (response.status === 401) window.dispatchEvent(new CustomEvent('paysplit:unauthorized'));
    throw error;
  }
  const body = (answer.data ?? {}) as { data?: T; meta?: Meta };
  return { data: body.data as T, meta: body.meta ?? null };
}
