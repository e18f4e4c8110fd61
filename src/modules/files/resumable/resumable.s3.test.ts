import { useStorageTestContext } from '../../../../test/helpers/storage.ts';
import { describeResumableUploads } from './resumable.cases.ts';

/** Resumable uploads gathered in the bucket of a real S3-protocol server (multipart uploads). */
const ctx = useStorageTestContext('s3');

describeResumableUploads(ctx, 's3');
