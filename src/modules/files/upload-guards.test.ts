import { useStorageTestContext } from '../../../test/helpers/storage.ts';
import { describeUploadGuards } from './upload-guards.cases.ts';

const ctx = useStorageTestContext('local');

describeUploadGuards(ctx, 'local');
