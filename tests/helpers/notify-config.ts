// A notifier's configuration for tests: every state, no channel of its own, the limits at their defaults' scale.
import type { NotifyConfig } from '../../src/config/config.js';

export const NOTIFY_TEST_CONFIG: NotifyConfig = {
  states: ['WAITING_APPROVAL', 'FAILED', 'STALLED', 'DONE'],
  desktop: false,
  terminal_bell: false,
  webhook_url: '',
  webhook_format: 'json',
  min_interval_s: 10,
  dedupe_s: 5,
  done_min_turn_s: 3,
  quiet_hours: '',
  group_s: 0,
  retries: 0,
  retry_base_s: 1,
  webhook_timeout_s: 30,
  command: '',
  command_states: [],
  dashboard_url: '',
};
