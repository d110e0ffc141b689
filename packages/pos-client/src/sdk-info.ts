// This package's name and version, for the User-Agent (the bundler inlines the two fields, not the manifest).

import type { SdkInfo } from '@fin/core/transport';
import { name, version } from '../package.json';

export const sdkInfo: SdkInfo = { name, version };
