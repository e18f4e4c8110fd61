import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { describeResumableUploads } from './resumable.cases.ts';

/** Resumable uploads gathered on the local disk store. */
const ctx = useStorageTestContext('local');

describeResumableUploads(ctx, 'local');
