import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { describeUploadGuards } from './upload-guards.cases.ts';

/** The same guards against a real S3-protocol server, where the bucket takes the PUTs itself. */
const ctx = useStorageTestContext('s3');

describeUploadGuards(ctx, 's3');
