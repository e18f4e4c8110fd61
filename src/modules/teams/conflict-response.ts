import { errorResponse } from '../../shared/schemas.ts';

/** Documents the 409 answers of an operation in its OpenAPI responses. */
export const conflictResponse = (description: string) => ({ 409: errorResponse(description) });
