import { useTestContext } from '../../../../test/helpers/context.ts';
import { describeSecurityMatrix } from '../../../../test/helpers/security-matrix.ts';
import { sessionSecurityCases } from '../sessions.security-cases.ts';

// The area's auth classes are checked in sessions.security.test.ts; here the probes of recordings and markers.
const ctx = useTestContext();
const cases = sessionSecurityCases(ctx);

describeSecurityMatrix(ctx, [...cases.recordings, ...cases.markers]);
