import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const STARTS_PROCESSES = /\b(?:startServer|useServerPair|spawn)\(/;

/**
 * Files that start processes take the longest. Without an earlier run's timings (a clean clone) Vitest
 * orders files by size and these small files come last, where one of them keeps a worker busy for half a
 * minute while the other has nothing left to run; they go first instead. Otherwise Vitest's order stands.
 */
export default class ProcessesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const startsProcesses = (file: TestSpecification) =>
      STARTS_PROCESSES.test(readFileSync(file.moduleId, 'utf8'));
    return [...sorted.filter(startsProcesses), ...sorted.filter((file) => !startsProcesses(file))];
  }
}
