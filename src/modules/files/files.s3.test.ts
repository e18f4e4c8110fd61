import { describeFileFlow } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';

/** The same flow against a real S3-protocol server: presigned URLs, checks at registration. */
const ctx = useStorageTestContext('s3', { env: { MAX_IMAGE_BYTES: '65536' } });

describeFileFlow(ctx, 's3');
