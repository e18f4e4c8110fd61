import { describeFileFlow } from '../../../test/helpers/file-flow.ts';
import { useStorageTestContext } from '../../../test/helpers/storage.ts';

const ctx = useStorageTestContext('local', { env: { MAX_IMAGE_BYTES: '65536' } });

describeFileFlow(ctx, 'local');
