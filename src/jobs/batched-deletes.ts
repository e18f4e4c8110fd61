/** Rows one delete statement removes: short statements, short locks. */
export const DELETE_BATCH = 1_000;
/** Statements one run of a cleanup job makes at most; what is left waits for its next run. */
export const DELETE_BATCHES_PER_RUN = 100;

/**
 * Runs `deleteBatch(limit)` until it removes fewer than `limit` rows or `maxBatches` ran; answers how many rows
 * went in all.
 */
export async function deleteInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  options: { batch?: number; maxBatches?: number } = {},
): Promise<number> {
  const batch = options.batch ?? DELETE_BATCH;
  const maxBatches = options.maxBatches ?? DELETE_BATCHES_PER_RUN;
  let deleted = 0;
  for (let run = 0; run < maxBatches; run++) {
    const gone = await deleteBatch(batch);
    deleted += gone;
    if (gone < batch) break;
  }
  return deleted;
}
