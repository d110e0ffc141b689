// Issue 37 §2 on the sources: the webhook faults of the fault suite (a stalled receiver beside a healthy one, a failing record write).
import { usePostgres } from '../../../../test/support/postgres.js';
import { startInstance } from './support/instances.js';
import { describeWebhookFaults } from './support/webhook-faults.js';

describeWebhookFaults({ build: 'sources', server: usePostgres(), start: (env) => startInstance(env) });
