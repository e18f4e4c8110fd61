/** Which bare server a scenario is compared with: a constant JSON answer, one primary-key read, or a 50-row page. */
export type Ceiling = 'json' | 'pk' | 'page';

/** A load scenario as bench/run.ts measures it. */
export type Scenario = {
  name: string;
  path: string;
  ceiling?: Ceiling;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
};
