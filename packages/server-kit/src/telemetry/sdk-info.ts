// This package's name and version, the instrumentation scope of its spans and metrics (inlined by the bundler).
import type { SdkInfo } from '@fin/core/transport';
import { name, version } from '../../package.json';

export const sdkInfo: SdkInfo = { name, version };
